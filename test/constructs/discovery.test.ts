import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliConfigProblem, userPluginsDir } from '../../src/provider-mirror';

/**
 * Where a user's Terraform CLI configuration would keep `terraform init` from finding
 * the provider in the implied mirrors, synth warns with the block to add (the real
 * -chdir discovery runs with Terraform in test/provider/users.test.ts).
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reseller-cliconfig-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const withConfig = (text: string | undefined) => {
  const file = join(dir, `c${Math.random().toString(36).slice(2)}.tfrc`);
  if (text !== undefined) writeFileSync(file, text);
  return cliConfigProblem({ TF_CLI_CONFIG_FILE: file, HOME: dir });
};

describe('the CLI configuration check of synth', () => {
  test('names the fix when a provider_installation block leaves the implied mirrors out', () => {
    const problem = withConfig('provider_installation {\n  network_mirror { url = "https://mirror.example.com/" }\n}\n');
    expect(problem).toMatch(/has a provider_installation block that does not mention reseller-hosting\.local/);
    expect(problem).toContain(`path    = "${userPluginsDir({ HOME: dir })}"`);
    expect(problem).toContain('include = ["reseller-hosting.local/*/*"]');
  });

  test('is quiet with no CLI configuration, one without provider_installation, or one that names the provider', () => {
    expect(withConfig(undefined)).toBeUndefined();
    expect(withConfig('disable_checkpoint = true\n# provider_installation { } in a comment\n')).toBeUndefined();
    expect(withConfig('provider_installation {\n  filesystem_mirror {\n    path = "/x"\n    include = ["reseller-hosting.local/*/*"]\n  }\n  direct {}\n}\n')).toBeUndefined();
  });
});
