import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  ENV, LOCAL_MIRROR_DIR, MISSING_API_URL, SERVICE_API_URL, mirrorPackageSegments, platformPackageName, PROVIDER_SOURCE, PROVIDER_TYPE, providerExecutableName, terraformPlatform,
} from '../../protocol';
import type { AccountReads, FactResult } from './fact';
import { checkFacts } from './facts';
import { RawAnswer, RawReader, rawReader, Unreachable } from './http';
import type { Shape } from './shapes';

/**
 * `reseller-hosting doctor`: read-only checks of a setup against a live account, in
 * order (each later check needs the earlier ones), then the account's live shapes
 * against every assumption the client makes. It sends GETs only.
 */
export type CheckStatus = 'ok' | 'failed' | 'not verifiable';

export interface CheckResult {
  readonly check: string;
  readonly status: CheckStatus;
  /** What was seen: statuses, versions, counts; never the key, never a name from the account. */
  readonly detail: string;
  /** What to do, when the check did not pass. */
  readonly fix?: string;
}

export interface KindShape {
  readonly count: number;
  /** The shape of the one object read (field names and types). */
  readonly shape?: Shape;
}

export interface DoctorReport {
  readonly checks: CheckResult[];
  /** Per kind of object: how many the account has and the shape of one. Empty when the key was not accepted. */
  readonly account: Record<string, KindShape>;
  readonly assumptions: FactResult[];
  /** True when a check failed or an assumption does not hold (exit code 1). */
  readonly failed: boolean;
}

export interface DoctorOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** The cdktf output whose stacks must find the provider. @default cdktf.out */
  readonly stacks?: string;
  /** For tests: another reader than HTTP. */
  readonly reader?: RawReader;
  /** For tests: the Terraform version probe. */
  readonly terraformVersion?: () => string | undefined;
}

/** Write-only attributes (the mailbox password) need Terraform 1.11; the package needs Node 20. */
export const MIN_TERRAFORM = [1, 11] as const;
export const MIN_NODE = 20;

const ok = (check: string, detail: string): CheckResult => ({ check, status: 'ok', detail });
const failed = (check: string, detail: string, fix: string): CheckResult => ({ check, status: 'failed', detail, fix });
const unknowable = (check: string, detail: string, fix?: string): CheckResult => ({ check, status: 'not verifiable', detail, ...(fix ? { fix } : {}) });

const CHECK = {
  url: 'the API URL answers',
  key: 'the API key is accepted',
  reseller: 'the reseller id resolves',
  versions: 'Terraform and Node support the provider',
  provider: 'the provider is found from a stack directory',
} as const;

export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const { env } = options;
  const urlText = (env[ENV.apiUrl] ?? '').replace(/\/+$/, '');
  const apiKey = env[ENV.apiKey] || undefined;
  const resellerId = env[ENV.resellerId] || '*';
  const checks: CheckResult[] = [];
  const account: Record<string, KindShape> = {};

  const urlOk = /^https?:\/\/[^\s/]+/.test(urlText);
  const reader = options.reader ?? (urlOk ? rawReader(urlText, apiKey) : undefined);
  const where = `${ENV.apiUrl}=${urlText}`;

  // 1. The URL answers at all (any HTTP status, without the key).
  let answers = false;
  if (!urlText) {
    checks.push(failed(CHECK.url, MISSING_API_URL, `export ${ENV.apiUrl}=${SERVICE_API_URL} (20i's reseller API), or the URL of your emulator`));
  } else if (!reader) {
    checks.push(failed(CHECK.url, `${ENV.apiUrl} is not an http(s) URL`, `set ${ENV.apiUrl} to the API's base URL, e.g. ${SERVICE_API_URL}`));
  } else {
    try {
      const answer = await reader.get('/package', { auth: false });
      answers = true;
      checks.push(ok(CHECK.url, `${where} answers (HTTP ${answer.status} without a key)`));
    } catch (err) {
      checks.push(failed(CHECK.url, `no answer from ${where}: ${err instanceof Unreachable ? err.message : String(err)}`,
        `check ${ENV.apiUrl} (scheme, host, port) and that this machine can reach it; for the local emulator run 'reseller-hosting emulator'`));
    }
  }

  // 2. The key, sent base64-encoded as a bearer token (as the client sends it).
  let keyOk = false;
  let packages: RawAnswer | undefined;
  if (!apiKey) {
    checks.push(failed(CHECK.key, `${ENV.apiKey} is not set`, `export ${ENV.apiKey} with the reseller's general API key, as the control panel shows it (the client base64-encodes it)`));
  } else if (!answers || !reader) {
    checks.push(unknowable(CHECK.key, 'the API did not answer'));
  } else {
    packages = await reader.get('/package').catch(() => undefined);
    if (!packages) {
      checks.push(failed(CHECK.key, 'the API stopped answering', 'run doctor again'));
    } else if (packages.status >= 200 && packages.status < 300) {
      keyOk = true;
      checks.push(ok(CHECK.key, `GET /package with the key (Bearer, base64) answered HTTP ${packages.status}`));
    } else if (packages.status === 401 || packages.status === 403) {
      const encodedAlready = looksBase64Encoded(apiKey) ? ' The key looks base64-encoded already: give it as the control panel shows it.' : '';
      checks.push(failed(CHECK.key, `GET /package with the key (Bearer, base64) answered HTTP ${packages.status}`,
        `use the reseller's general API key exactly as the control panel shows it (not the OAuth client key, not base64-encoded: the client encodes it).${encodedAlready}`));
    } else {
      checks.push(failed(CHECK.key, `GET /package with the key answered HTTP ${packages.status}`, `check that ${ENV.apiUrl} is the API's base URL, not a page of the control panel`));
    }
  }

  // 3. The reseller id of /reseller/{id}/... paths.
  let types: RawAnswer | undefined;
  if (!keyOk || !reader) {
    checks.push(unknowable(CHECK.reseller, 'the key was not accepted'));
  } else {
    types = await reader.get(`/reseller/${encodeURIComponent(resellerId)}/packageTypes`).catch(() => undefined);
    if (types && types.status >= 200 && types.status < 300) {
      checks.push(ok(CHECK.reseller, `GET /reseller/${resellerId}/packageTypes answered HTTP ${types.status}`));
    } else {
      checks.push(failed(CHECK.reseller, `GET /reseller/${resellerId}/packageTypes answered ${types ? `HTTP ${types.status}` : 'nothing'}`,
        `unset ${ENV.resellerId} (the default "*" is the key's own account) or set it to the reseller id the control panel shows`));
    }
  }

  checks.push(versionsCheck(options.terraformVersion ?? probeTerraform(env)));
  checks.push(providerCheck(resolve(options.cwd, options.stacks ?? 'cdktf.out')));

  const assumptions = await checkFacts(keyOk && reader ? accountReads(reader, resellerId, packages?.body, types?.body, account) : undefined);
  return {
    checks,
    account,
    assumptions,
    failed: checks.some((c) => c.status === 'failed') || assumptions.some((a) => a.status === 'not held'),
  };
}

/** A key that is the base64 of printable text (someone encoded it before giving it): a likely mistake. */
function looksBase64Encoded(key: string): boolean {
  if (key.length < 12 || key.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(key)) return false;
  const decoded = Buffer.from(key, 'base64').toString('utf8');
  return /^[\x21-\x7e]+$/.test(decoded) && Buffer.from(decoded, 'utf8').toString('base64') === key;
}

/** What the areas of facts.ts read through: GETs only, each kind they read put into `account`. */
function accountReads(reader: RawReader, resellerId: string, packageList: unknown, packageTypes: unknown,
  account: Record<string, KindShape>): AccountReads {
  const answer = (path: string) => reader.get(path).catch(() => undefined);
  return {
    resellerId, packageList, packageTypes, answer,
    async body(path) {
      const got = await answer(path);
      return got && got.status >= 200 && got.status < 300 ? got.body : undefined;
    },
    found(kind, count, shape) {
      account[kind] = { count, shape };
    },
  };
}

/** `terraform version -json` (TERRAFORM_BINARY, else terraform on PATH) -> "1.11.4"; undefined when it does not run. */
function probeTerraform(env: NodeJS.ProcessEnv): () => string | undefined {
  return () => {
    const run = spawnSync(env.TERRAFORM_BINARY || 'terraform', ['version', '-json'], {
      encoding: 'utf8', timeout: 30_000, env: { ...env, CHECKPOINT_DISABLE: '1' },
    });
    if (run.status !== 0) return undefined;
    try {
      return String(JSON.parse(run.stdout).terraform_version);
    } catch {
      return /Terraform v([0-9.]+)/.exec(run.stdout)?.[1];
    }
  };
}

function versionsCheck(terraformVersion: () => string | undefined): CheckResult {
  const node = process.versions.node;
  const nodeMajor = Number(node.split('.')[0]);
  const terraform = terraformVersion();
  const seen = `Node ${node}, Terraform ${terraform ?? 'not found'}`;
  if (nodeMajor < MIN_NODE) return failed(CHECK.versions, seen, `install Node ${MIN_NODE} or later`);
  if (!terraform) {
    return failed(CHECK.versions, seen, `install Terraform ${MIN_TERRAFORM.join('.')} or later and put it on PATH (or set TERRAFORM_BINARY)`);
  }
  const [major, minor] = terraform.split('.').map(Number);
  if (major < MIN_TERRAFORM[0] || (major === MIN_TERRAFORM[0] && minor < MIN_TERRAFORM[1])) {
    return failed(CHECK.versions, seen, `Terraform ${MIN_TERRAFORM.join('.')} or later sends write-only attributes (the secrets' *_wo attributes): upgrade it`);
  }
  return ok(CHECK.versions, seen);
}

/**
 * The platforms a stack's local mirror holds the provider for, in either of Terraform's
 * layouts: unpacked (`<version>/<os>_<arch>/terraform-provider-reseller_v<version>`, the
 * launcher) or packed (`terraform-provider-reseller_<version>_<os>_<arch>.zip`, the
 * executables synth places for `providerPlatforms`).
 */
function placedPlatforms(typeDir: string): Set<string> {
  const platforms = new Set<string>();
  if (!existsSync(typeDir)) return platforms;
  for (const entry of readdirSync(typeDir)) {
    const zip = PACKED_ZIP.exec(entry);
    if (zip) platforms.add(zip[1]);
    else if (statSync(join(typeDir, entry)).isDirectory()) {
      for (const platform of readdirSync(join(typeDir, entry))) if (existsSync(join(typeDir, entry, platform, providerExecutableName(entry)))) platforms.add(platform);
    }
  }
  return platforms;
}

const PACKED_ZIP = new RegExp(`^terraform-provider-${PROVIDER_TYPE}_[^_]+_([a-z0-9]+_[a-z0-9]+)\\.zip$`);

/**
 * Every synthesized stack that requires the provider must have it in its implied
 * local mirror (terraform.d/plugins/...), for `terraform init` to find it offline.
 */
function providerCheck(out: string): CheckResult {
  const stacksDir = join(out, 'stacks');
  const fix = 'run doctor from the project root after cdktf synth, or pass --stacks DIR (the cdktf output)';
  if (!existsSync(stacksDir)) return unknowable(CHECK.provider, 'no synthesized stacks (cdktf.out/stacks) here', fix);
  const platform = terraformPlatform(process.platform, process.arch);
  const using = readdirSync(stacksDir).filter((stack) => {
    const file = join(stacksDir, stack, 'cdk.tf.json');
    return existsSync(file) && readFileSync(file, 'utf8').includes(PROVIDER_SOURCE);
  });
  if (using.length === 0) return unknowable(CHECK.provider, 'no synthesized stack uses the native provider (engine: provider)', fix);
  const placed = new Map(using.map((stack) => [stack, placedPlatforms(join(stacksDir, stack, ...LOCAL_MIRROR_DIR, ...mirrorPackageSegments('x', platform).slice(0, 3)))]));
  const missing = using.filter((stack) => !placed.get(stack)!.has(platform));
  if (missing.length) {
    const has = (stack: string) => (placed.get(stack)!.size ? `${stack} (only ${[...placed.get(stack)!].sort().join(', ')})` : stack);
    return failed(CHECK.provider, `${missing.length} of ${using.length} stack(s) have no provider for ${platform} in terraform.d/plugins: ${missing.map(has).join(', ')}`,
      `run cdktf synth again (synth places the provider in each stack directory; with ResellerHosting providerPlatforms, name ${platform} and install ${platformPackageName(platform)}), or reseller-hosting provider install`);
  }
  return ok(CHECK.provider, `${using.length} stack(s) find the provider for ${platform} in terraform.d/plugins`);
}
