import { PROVIDER_SOURCE } from '../../protocol';
import { defineCommand, UsageError } from '../command';

export const PROVIDER_USAGE = `usage: reseller-hosting provider
       reseller-hosting provider install [--stack DIR | --plugins-dir DIR]

provider           the Terraform provider itself: what Terraform runs as the plugin
                   (started by terraform, not by hand)
provider install   places the provider where 'terraform init' finds it offline with no
                   CLI configuration: ~/.terraform.d/plugins (default), or
                   DIR/terraform.d/plugins of one stack directory (--stack). Then
                   declare it in your configuration:

                     terraform {
                       required_providers {
                         reseller = { source = "${PROVIDER_SOURCE}" }
                       }
                     }

options:
  --stack DIR          install: into the stack directory DIR (DIR/terraform.d/plugins)
  --plugins-dir DIR    install: into the plugins directory DIR itself
  --version            print the version (the provider's is the same)
`;

/**
 * `reseller-hosting provider [install]`: the shared command surface over the provider's
 * own entry points (src/provider/main.ts serves the plugin, src/provider/install.ts
 * places it), which stay as they are.
 */
export const runProviderCommand = defineCommand({
  name: 'provider',
  usage: PROVIDER_USAGE,
  options: {
    stack: { type: 'string' },
    'plugins-dir': { type: 'string' },
  },
  positionals: { min: 0, max: 1, what: 'install' },
  async run({ values, positionals }) {
    const [sub] = positionals;
    const dirs = [values.stack !== undefined && '--stack', values['plugins-dir'] !== undefined && '--plugins-dir'].filter(Boolean);
    if (sub === undefined) {
      if (dirs.length) throw new UsageError(`${dirs[0]} goes with provider install`);
      const { runProviderCli } = require('../../provider/main') as typeof import('../../provider/main');
      return runProviderCli([]);
    }
    if (sub !== 'install') throw new UsageError(`unknown sub-command "${sub}" (provider takes install, or nothing when Terraform runs it)`);
    if (dirs.length > 1) throw new UsageError('--stack and --plugins-dir exclude each other');
    for (const name of ['stack', 'plugins-dir'] as const) if (values[name] === '') throw new UsageError(`--${name} must not be empty`);
    const { runInstall } = require('../../provider/install') as typeof import('../../provider/install');
    if (values.stack !== undefined) return runInstall(['--stack', values.stack]);
    if (values['plugins-dir'] !== undefined) return runInstall(['--plugins-dir', values['plugins-dir']]);
    return runInstall([]);
  },
});
