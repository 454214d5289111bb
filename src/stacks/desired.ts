import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { definitionOf, ENV, Identity, identityOf, isKind, Kind, ObjectSpec, parseIdentity, parseSpec } from '../protocol';
import { readProviderObjects } from './provider-stack';
import { StackError } from './errors';

/**
 * The desired state, read back from synthesized stacks (`cdk.tf.json`). Only the
 * resources the constructs write are understood: for provider-engine stacks the
 * `reseller_*` resources (see provider-stack.ts); for the carriers, an object's settings resource
 * (`<object>_settings`, a `terraform_data` / `null_resource`) has the create-time
 * provisioner that runs `handler ensure` with the object's spec in `RESELLER_SPEC`;
 * the object resource's replace-triggers hold the identity.
 */

export type CarrierType = 'terraform_data' | 'null_resource';
const CARRIERS: readonly CarrierType[] = ['terraform_data', 'null_resource'];

export interface StackFile {
  /** Stack name (from the file's metadata, else its directory name). */
  readonly name: string;
  /** Path of the cdk.tf.json. */
  readonly file: string;
}

export interface DesiredObject {
  readonly stack: string;
  /** Terraform address of the object resource, e.g. `terraform_data.shop`. */
  readonly address: string;
  /** A carrier type, or a provider resource type (`reseller_package`) for provider-engine stacks. */
  readonly resourceType: CarrierType | string;
  readonly logicalId: string;
  /** Construct path, e.g. `reseller-example/shop`. */
  readonly path: string;
  /** Address of the settings resource (`<address>_settings`), when the stack has one. */
  readonly settingsAddress?: string;
  /** Declared with `absent: true` (count = 0). */
  readonly absent: boolean;
  /** Kind, natural key and placement, canonical; undefined when they depend on Terraform variables. */
  readonly identity?: Identity;
  /** Kind, even when the identity is unknown. */
  readonly kind?: Kind;
  /** The full spec, canonical; undefined when it depends on Terraform variables (see `unknownSpec`) or is invalid. */
  readonly spec?: ObjectSpec;
  /** True when RESELLER_SPEC is a Terraform expression (`${jsonencode(...)}`), readable only by Terraform. */
  readonly unknownSpec: boolean;
  /** Why the spec could not be used (invalid JSON or values). */
  readonly specError?: string;
  /**
   * An object's secret (its kind's secret facet: a mailbox's password) as its provisioner
   * or resource gets it: the Terraform variable whose value it is (`${var.NAME}`, which
   * `terraform apply` reads from `TF_VAR_NAME`), when literal.
   */
  readonly secretVariable?: string;
}

export interface StackSettings {
  readonly name: string;
  readonly file: string;
  /** `RESELLER_API_URL` the stack's provisioners set (ResellerHosting `apiUrl`), if literal. */
  readonly apiUrl?: string;
  /** `RESELLER_ID` the stack's provisioners set (ResellerHosting `resellerId`), if literal. */
  readonly resellerId?: string;
}

export interface DesiredState {
  readonly stacks: StackSettings[];
  readonly objects: DesiredObject[];
}

/**
 * The synthesized stacks below `out`, forgivingly: a cdktf output directory (with
 * `stacks/<name>/cdk.tf.json`), its `stacks` directory, one stack directory, or a
 * cdk.tf.json itself. Without `out`: `cdktf.out`, else the `output` of ./cdktf.json.
 */
export function findStackFiles(out: string | undefined, cwd: string): StackFile[] {
  let target = out;
  if (target === undefined) {
    target = 'cdktf.out';
    const config = join(cwd, 'cdktf.json');
    if (!existsSync(join(cwd, target)) && existsSync(config)) {
      try {
        const output = JSON.parse(readFileSync(config, 'utf8')).output;
        if (typeof output === 'string' && output) target = output;
      } catch {
        // an unreadable cdktf.json: keep the default
      }
    }
  }
  const path = resolve(cwd, target);
  if (!existsSync(path)) {
    throw new StackError(`${target} does not exist: synthesize the stacks first (cdktf synth) or point --stacks at the output directory`);
  }
  const files: string[] = [];
  if (statSync(path).isFile()) {
    files.push(path);
  } else if (existsSync(join(path, 'cdk.tf.json'))) {
    files.push(join(path, 'cdk.tf.json'));
  } else {
    const stacksDir = existsSync(join(path, 'stacks')) && statSync(join(path, 'stacks')).isDirectory() ? join(path, 'stacks') : path;
    for (const entry of readdirSync(stacksDir).sort()) {
      const file = join(stacksDir, entry, 'cdk.tf.json');
      if (existsSync(file)) files.push(file);
    }
  }
  if (files.length === 0) {
    throw new StackError(`no synthesized stack (cdk.tf.json) found in ${target}: run cdktf synth first, or point --stacks at a stack directory`);
  }
  return files.map((file) => ({ name: stackNameOf(file), file }));
}

function stackNameOf(file: string): string {
  try {
    const name = JSON.parse(readFileSync(file, 'utf8'))?.['//']?.metadata?.stackName;
    if (typeof name === 'string' && name) return name;
  } catch {
    // reported when the file is read for real
  }
  return basename(dirname(file));
}

/** A synthesized stack file's JSON; a file that is not JSON is an error naming it. */
export function readStackJson(file: string, cwd: string): any {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new StackError(`${relative(cwd, file) || file} is not readable JSON: ${(err as Error).message}`);
  }
}

/** Reads the objects every stack file declares. */
export function readDesired(files: readonly StackFile[], cwd: string): DesiredState {
  const stacks: StackSettings[] = [];
  const objects: DesiredObject[] = [];
  for (const { name, file } of files) {
    const read = readStack(name, readStackJson(file, cwd));
    stacks.push({ name, file: relative(cwd, file) || file, ...read.settings });
    objects.push(...read.objects);
  }
  return { stacks, objects };
}

/** The objects of one synthesized stack (exported for tests and the benchmark). */
export function readStack(stack: string, config: any): { objects: DesiredObject[]; settings: { apiUrl?: string; resellerId?: string } } {
  const objects: DesiredObject[] = [];
  const settings: { apiUrl?: string; resellerId?: string } = {};
  const resources = config?.resource ?? {};
  for (const type of CARRIERS) {
    const byName: Record<string, any> = resources[type] ?? {};
    for (const [name, body] of Object.entries(byName)) {
      const ensure = ensureProvisioner(body);
      if (!ensure) continue;
      const env: Record<string, unknown> = ensure.environment ?? {};
      const apiUrl = literalText(env[ENV.apiUrl]);
      const resellerId = literalText(env[ENV.resellerId]);
      if (apiUrl !== undefined) settings.apiUrl ??= apiUrl;
      if (resellerId !== undefined) settings.resellerId ??= resellerId;
      // The settings resource runs `ensure`; its object resource is `<name>` without the
      // suffix (stacks synthesized by 0.1 ran it from the object resource itself).
      const objectName = name.endsWith(SETTINGS_SUFFIX) ? name.slice(0, -SETTINGS_SUFFIX.length) : undefined;
      if (objectName !== undefined && objectName in byName) {
        objects.push(readObject(stack, type, objectName, byName[objectName], env[ENV.spec], true, env));
      } else {
        objects.push(readObject(stack, type, name, body, env[ENV.spec], `${name}${SETTINGS_SUFFIX}` in byName, env));
      }
    }
  }
  objects.push(...readProviderObjects(stack, resources, config?.data ?? {}));
  // The provider block of a provider-engine stack (cdktf writes a list of blocks).
  const providers = config?.provider?.reseller;
  const block = Array.isArray(providers) ? providers.find((p: any) => !p?.alias) : providers;
  if (block && typeof block === 'object') {
    const apiUrl = literalText(block.api_url);
    const resellerId = literalText(block.reseller_id);
    if (apiUrl !== undefined) settings.apiUrl ??= apiUrl;
    if (resellerId !== undefined) settings.resellerId ??= resellerId;
  }
  return { objects, settings };
}

const SETTINGS_SUFFIX = '_settings';

function ensureProvisioner(body: any): Record<string, any> | undefined {
  const provisioners: any[] = Array.isArray(body?.provisioner) ? body.provisioner : [];
  for (const p of provisioners) {
    const exec = p?.['local-exec'];
    if (exec && exec.command === 'ensure' && exec.when !== 'destroy' && exec.environment && ENV.spec in exec.environment) return exec;
  }
  return undefined;
}

function readObject(
  stack: string, type: CarrierType, name: string, body: any, rawSpec: unknown, hasSettings: boolean, env: Record<string, unknown> = {},
): DesiredObject {
  const address = `${type}.${name}`;
  const triggers: Record<string, unknown> = body.triggers_replace ?? body.triggers ?? {};
  const absent = body.count === 0 || body.count === '0';
  const metaPath: unknown = body?.['//']?.metadata?.path;

  // The spec: literal JSON (with Terraform's template escapes) or an expression.
  let spec: ObjectSpec | undefined;
  let specError: string | undefined;
  const specText = literalText(rawSpec);
  const unknownSpec = typeof rawSpec === 'string' && specText === undefined;
  if (specText !== undefined) {
    try {
      spec = parseSpec(specText);
    } catch (err) {
      specError = (err as Error).message;
    }
  } else if (!unknownSpec) {
    specError = `${ENV.spec} is not a string`;
  }

  // The identity: from the spec when known, else from the literal replace-triggers.
  let identity: Identity | undefined = spec ? identityOf(spec) : undefined;
  if (!identity) {
    const kind = literalText(triggers.kind);
    const key = literalText(triggers.key);
    const placement = triggers.placement === undefined ? '' : literalText(triggers.placement);
    if (isKind(kind) && key && placement !== undefined) {
      try {
        identity = parseIdentity(JSON.stringify({ kind, key, placement, parent: '' }));
      } catch {
        identity = undefined;
      }
    }
  }
  const triggerKind = literalText(triggers.kind);
  const kind = spec?.kind ?? identity?.kind ?? (isKind(triggerKind) ? triggerKind : undefined);
  const path = spec?.path ?? (typeof metaPath === 'string' ? metaPath.replace(/\/Object$/, '') : `${stack}/${name}`);
  const secret = kind ? definitionOf(kind).secret : undefined;
  return {
    stack,
    address,
    resourceType: type,
    logicalId: name,
    path,
    settingsAddress: hasSettings ? `${address}_settings` : undefined,
    absent,
    identity: identity && { ...identity, parent: '' },
    kind,
    spec,
    unknownSpec,
    specError,
    secretVariable: secret ? variableOf(env[secret.environment]) : undefined,
  };
}

/** `NAME` of a value that is exactly `${var.NAME}`; undefined otherwise. */
function variableOf(value: unknown): string | undefined {
  const m = typeof value === 'string' ? /^\$\{var\.([A-Za-z_][A-Za-z0-9_-]*)\}$/.exec(value) : null;
  return m ? m[1] : undefined;
}

/**
 * The text a Terraform JSON string stands for, when it is literal: `$${` and `%%{` are
 * escapes of `${` and `%{`; an unescaped `${` or `%{` starts an expression or a
 * directive, whose value only Terraform knows (undefined then).
 */
export function literalText(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (!value.includes('{')) return value;
  // Escapes are read left to right, as Terraform does; a placeholder keeps what is left
  // of an escape from joining its neighbours into a new sequence.
  const unescaped = value.replace(/\$\$\{|%%\{/g, (m) => `${m[0]}\u0000`);
  if (/[$%]\{/.test(unescaped)) return undefined;
  return unescaped.replace(/([$%])\u0000/g, '$1{');
}
