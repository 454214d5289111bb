import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResellerClient } from '../../src/client';
import type { TerraformResult } from '../../scripts/lib/terraform';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { builtProviderInstaller, requireTerraform, tempDir, terraform } from '../e2e/support';

/** Resources of a hand-written Terraform JSON configuration: type -> name -> arguments. */
export type Resources = Record<string, Record<string, Record<string, unknown>>>;

/**
 * A directory where real Terraform runs the built provider against an emulator, from a
 * hand-written Terraform JSON configuration: the provider sits in the directory's implied
 * local mirror (terraform.d/plugins), so `terraform init` finds it offline.
 */
export interface ProviderWorkspace {
  readonly tf: string;
  readonly emu: TestEmulator;
  readonly dir: string;
  /** Changes made outside Terraform, as the control panel makes them. */
  readonly api: ResellerClient;
  /** Writes main.tf.json: the provider block for the emulator, `resources`, and `extra` top-level blocks (import, removed, ...). */
  writeConfig(resources: Resources, extra?: Record<string, unknown>): void;
  /** The environment of every Terraform run (for savedPlan and the like). */
  readonly env: NodeJS.ProcessEnv;
  /** `terraform <command> -input=false -no-color <rest>` in the directory; an exit code outside `okCodes` throws with the output. */
  run(args: string[], okCodes?: number[]): Promise<TerraformResult>;
  /** The exit code of `terraform plan -detailed-exitcode <extra>`: 0 no changes, 2 changes. */
  planCode(...extra: string[]): Promise<number>;
  stop(): Promise<void>;
}

export interface WorkspaceOptions {
  /** Names the temp directory. */
  readonly name: string;
  readonly provisionDelayMs?: number;
  /** Variables of the configuration (`variable` blocks), e.g. an ephemeral mailbox password. */
  readonly variables?: Record<string, unknown>;
  /** Environment of every Terraform run beside the API key and a short poll interval. */
  readonly env?: NodeJS.ProcessEnv;
}

/** Starts the emulator, lays out the directory with `initial` and runs `terraform init`. */
export async function startProviderWorkspace(options: WorkspaceOptions, initial: Resources): Promise<ProviderWorkspace> {
  const tf = requireTerraform();
  const installer = builtProviderInstaller();
  const emu = await startTestEmulator({ provisionDelayMs: options.provisionDelayMs ?? 100 });
  const dir = tempDir(options.name);
  installer.installProvider(join(dir, 'terraform.d', 'plugins'));
  const api = new ResellerClient({ baseUrl: emu.url, apiKey: API_KEY, retryBaseDelayMs: 10 });
  const env: NodeJS.ProcessEnv = { RESELLER_API_KEY: API_KEY, RESELLER_POLL_INTERVAL: '100ms', ...options.env };

  const writeConfig = (resources: Resources, extra: Record<string, unknown> = {}): void => {
    writeFileSync(join(dir, 'main.tf.json'), JSON.stringify({
      terraform: { required_providers: { reseller: { source: installer.PROVIDER_SOURCE } } },
      ...(options.variables ? { variable: options.variables } : {}),
      provider: { reseller: { api_url: emu.url } },
      ...(Object.keys(resources).length ? { resource: resources } : {}), // Terraform refuses an empty resource object
      ...extra,
    }, null, 2));
  };
  const run = ([command, ...rest]: string[], okCodes = [0]) => terraform(tf, [command, '-input=false', '-no-color', ...rest], dir, env, okCodes);
  const planCode = async (...extra: string[]) => (await run(['plan', '-detailed-exitcode', ...extra], [0, 2])).code;
  const stop = async () => {
    api.close();
    await emu.stop();
    rmSync(dir, { recursive: true, force: true });
  };

  writeConfig(initial);
  await run(['init']);
  return { tf, emu, dir, api, env, writeConfig, run, planCode, stop };
}
