import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';

/**
 * A small stand-in for `terraform apply` over a synthesized cdk.tf.json, for the
 * handler's integration tests. It runs the EXACT provisioners the constructs wrote
 * (interpreter, command, environment) the way Terraform (1.11) does:
 * - in dependency order: references (`${<type>.<name>.id}`) and `depends_on`;
 * - a resource is replaced when its resolved replace-triggers change (a reference to a
 *   resource being replaced counts as a change, as Terraform's "known after apply"),
 *   or when it is tainted, or named with `replace` (`terraform apply -replace=ADDR`);
 * - destroy-before-create: every doomed resource is destroyed (dependents first) before
 *   any create; destroy-time provisioners are those of the CURRENT configuration block
 *   (a resource removed from the configuration runs none; `absent` keeps the block with
 *   count = 0), and their `self` is the object as stored in the state;
 * - a failed create-time provisioner leaves the resource in the state as TAINTED and
 *   stops the apply; a tainted resource is replaced on the next apply WITHOUT running
 *   its destroy-time provisioners (Terraform skips them for tainted objects);
 * - a failed destroy-time provisioner keeps the resource in the state, so the next
 *   apply runs it again;
 * - destroy-time provisioners may reference nothing but `self` (terraform validate
 *   refuses anything else), so a reference there fails the test.
 * Only the expressions our constructs emit are understood; anything else fails the test
 * loudly. The real engine is exercised by the e2e tests.
 */
export interface ProvisionerRun {
  address: string;
  command: string;
  when: 'create' | 'destroy';
  code: number;
  stdout: string;
  stderr: string;
  /** RESELLER_OBJECT_ID as the provisioner got it (undefined when not set). */
  objectId?: string;
}

interface ResourceConfig {
  address: string;
  body: Record<string, any>;
}

export interface StateEntry {
  id: string;
  /** The resolved replace-triggers (`self.triggers_replace` / `self.triggers`). */
  triggers: Record<string, unknown>;
  /** Addresses this resource depends on (references and depends_on). */
  deps: string[];
  /** A create-time provisioner failed. */
  tainted: boolean;
}

export interface ApplyOptions {
  /** `terraform apply -replace=ADDRESS`. */
  replace?: string[];
}

export class ProvisionerFailed extends Error {
  constructor(readonly run: ProvisionerRun) {
    super(`${run.address} ${run.command} exited ${run.code}: ${run.stderr.trim()}`);
  }
}

export class MiniTerraform {
  readonly state = new Map<string, StateEntry>();
  readonly runs: ProvisionerRun[] = [];

  constructor(
    readonly stackDir: string,
    private readonly env: NodeJS.ProcessEnv,
    /** Values of Terraform variables (`var.x`); tests change them between applies. */
    public vars: Record<string, string> = {},
  ) {}

  /** `terraform apply`; returns the provisioner runs of this apply (throws ProvisionerFailed). */
  apply(config: any, options: ApplyOptions = {}): Promise<ProvisionerRun[]> {
    return this.converge(config, options.replace ?? [], false);
  }

  /** `terraform destroy` of `config`: every resource in the state, dependents first. */
  destroy(config: any): Promise<ProvisionerRun[]> {
    return this.converge(config, [], true);
  }

  private async converge(config: any, replaceAddresses: string[], destroyAll: boolean): Promise<ProvisionerRun[]> {
    const start = this.runs.length;
    const blocks = new Map(listResources(config).map((r) => [r.address, r]));
    const resources = destroyAll ? [] : [...blocks.values()].filter((r) => r.body.count !== 0);
    const order = topoSort(resources);
    for (const address of replaceAddresses) {
      if (!resources.some((r) => r.address === address)) fail(`-replace=${address}: no such resource in the configuration`);
    }
    const planned = new Map<string, { id: string; triggers: Record<string, unknown>; replace: boolean }>();
    const idOf = (address: string) => planned.get(address)?.id ?? fail(`unknown resource ${address}`);
    for (const r of order) {
      const triggerKey = triggerKeyOf(r.body);
      const old = this.state.get(r.address);
      const triggers = resolveValue(r.body[triggerKey] ?? {}, { idOf, selfId: old?.id ?? 'pending', vars: this.vars }) as Record<string, unknown>;
      const replace = !old || old.tainted || replaceAddresses.includes(r.address) || !isDeepStrictEqual(old.triggers, triggers);
      planned.set(r.address, { id: replace ? randomUUID() : old!.id, triggers, replace });
    }

    // Destroy: resources gone from the configuration (or counted out) and those being
    // replaced, dependents first. The destroy-time provisioners are those of the CURRENT
    // configuration block, with `self` as stored in the state: a block removed from the
    // configuration takes its provisioners with it, and a tainted object runs none.
    const doomed = [...this.state.keys()].filter((a) => !planned.has(a) || planned.get(a)!.replace);
    for (const address of this.destroyOrder(doomed)) {
      const entry = this.state.get(address)!;
      const block = blocks.get(address);
      const provisioners = entry.tainted || !block ? [] : localExecs(block).filter((p) => p.when === 'destroy');
      for (const p of provisioners) {
        const env = resolveValue(p.environment ?? {}, {
          idOf: (a) => fail(`destroy-time provisioner of ${address} references ${a}: only self is allowed`),
          selfId: entry.id,
          vars: {},
          selfTriggers: entry.triggers,
          triggerKey: triggerKeyOf(block!.body),
        }) as Record<string, string>;
        await this.run(address, 'destroy', p, env); // throws: the resource stays in the state
      }
      this.state.delete(address);
    }

    // Create, in dependency order.
    for (const r of order) {
      const plan = planned.get(r.address)!;
      if (!plan.replace) continue;
      const triggerKey = triggerKeyOf(r.body);
      const entry: StateEntry = { id: plan.id, triggers: plan.triggers, deps: dependenciesOf(r.body), tainted: false };
      this.state.set(r.address, entry);
      for (const p of localExecs(r).filter((p) => p.when !== 'destroy')) {
        const env = resolveValue(p.environment ?? {}, {
          idOf, selfId: plan.id, vars: this.vars, selfTriggers: plan.triggers, triggerKey,
        }) as Record<string, string>;
        try {
          await this.run(r.address, 'create', p, env);
        } catch (err) {
          entry.tainted = true; // kept in the state, replaced by the next apply
          throw err;
        }
      }
    }
    return this.runs.slice(start);
  }

  /** Terraform id of a resource in the state. */
  idOf(address: string): string {
    return this.state.get(address)?.id ?? fail(`${address} is not in the state`);
  }

  private destroyOrder(addresses: string[]): string[] {
    const set = new Set(addresses);
    const out: string[] = [];
    const seen = new Set<string>();
    const visit = (a: string) => {
      if (seen.has(a) || !set.has(a)) return;
      seen.add(a);
      for (const [other, entry] of this.state) if (entry.deps.includes(a)) visit(other);
      out.push(a);
    };
    for (const a of addresses) visit(a);
    return out;
  }

  private run(address: string, when: 'create' | 'destroy', p: Record<string, any>, env: Record<string, string>): Promise<ProvisionerRun> {
    const [bin, ...args] = p.interpreter as string[];
    return new Promise((resolve, reject) => {
      const child = spawn(bin, [...args, p.command], { cwd: this.stackDir, env: { ...this.env, ...env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => {
        const run: ProvisionerRun = { address, command: p.command, when, code: code ?? 1, stdout, stderr, objectId: env.RESELLER_OBJECT_ID };
        this.runs.push(run);
        if (run.code === 0) resolve(run);
        else reject(new ProvisionerFailed(run));
      });
    });
  }
}

/** `address command` of each run, for compact assertions. */
export const summary = (runs: ProvisionerRun[]) => runs.map((r) => `${r.address} ${r.command}`);

function localExecs(r: ResourceConfig): Array<Record<string, any>> {
  return (r.body.provisioner ?? []).map((p: any) => p['local-exec'] ?? fail(`${r.address}: only local-exec provisioners are understood`));
}

function triggerKeyOf(body: Record<string, any>): 'triggers_replace' | 'triggers' {
  return body.triggers !== undefined ? 'triggers' : 'triggers_replace';
}

function listResources(config: any): ResourceConfig[] {
  const out: ResourceConfig[] = [];
  for (const [type, byName] of Object.entries<any>(config.resource ?? {})) {
    if (type !== 'terraform_data' && type !== 'null_resource') fail(`mini-terraform does not know resource type ${type}`);
    for (const [name, body] of Object.entries<any>(byName)) out.push({ address: `${type}.${name}`, body });
  }
  return out;
}

/** What a resource depends on: the resources it references, and its depends_on. */
function dependenciesOf(body: Record<string, any>): string[] {
  const found = new Set<string>();
  const { depends_on: dependsOn, ...rest } = body;
  JSON.stringify(rest).replace(/\b((?:terraform_data|null_resource)\.[A-Za-z0-9_-]+)\.id\b/g, (_, a: string) => {
    found.add(a);
    return '';
  });
  for (const a of (dependsOn ?? []) as unknown[]) {
    if (typeof a !== 'string' || !/^(?:terraform_data|null_resource)\.[A-Za-z0-9_-]+$/.test(a)) fail(`mini-terraform does not understand depends_on entry ${JSON.stringify(a)}`);
    found.add(a);
  }
  return [...found];
}

function topoSort(resources: ResourceConfig[]): ResourceConfig[] {
  const byAddress = new Map(resources.map((r) => [r.address, r]));
  const out: ResourceConfig[] = [];
  const done = new Set<string>();
  const visiting = new Set<string>();
  const visit = (r: ResourceConfig) => {
    if (done.has(r.address)) return;
    if (visiting.has(r.address)) fail(`dependency cycle through ${r.address}`);
    visiting.add(r.address);
    for (const dep of dependenciesOf(r.body)) {
      const d = byAddress.get(dep);
      // Terraform refuses a reference to (or depends_on) a resource that is not declared.
      if (!d) fail(`${r.address} depends on ${dep}, which is not in the configuration (or has count = 0)`);
      visit(d);
    }
    visiting.delete(r.address);
    done.add(r.address);
    out.push(r);
  };
  resources.forEach(visit);
  return out;
}

interface Scope {
  idOf(address: string): string;
  selfId: string;
  vars: Record<string, string>;
  selfTriggers?: Record<string, unknown>;
  triggerKey?: string;
}

function resolveValue(value: unknown, scope: Scope): unknown {
  if (typeof value === 'string') return resolveString(value, scope);
  if (Array.isArray(value)) return value.map((v) => resolveValue(v, scope));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveValue(v, scope)]));
  }
  return value;
}

function resolveString(text: string, scope: Scope): string {
  // `$${` and `%%{` are Terraform's escapes of a literal `${` and `%{`; directives are not understood.
  return text.replace(/\$\$\{|%%\{|%\{|\$\{([^}]*)\}/g, (whole, expr: string | undefined) => {
    if (whole === '$${') return '${';
    if (whole === '%%{') return '%{';
    if (whole === '%{') return fail(`mini-terraform does not understand template directives: ${JSON.stringify(text)}`);
    const e = expr!.trim();
    if (e === 'self.id') return scope.selfId;
    let m = /^((?:terraform_data|null_resource)\.[A-Za-z0-9_-]+)\.id$/.exec(e);
    if (m) return scope.idOf(m[1]);
    m = /^var\.([A-Za-z0-9_-]+)$/.exec(e);
    if (m) return scope.vars[m[1]] ?? fail(`variable ${m[1]} has no value`);
    m = /^jsonencode\(self\.(triggers_replace|triggers)\)$/.exec(e);
    if (m) {
      if (m[1] !== scope.triggerKey || !scope.selfTriggers) fail(`self.${m[1]} is not this resource's trigger attribute`);
      return JSON.stringify(scope.selfTriggers);
    }
    return fail(`mini-terraform does not understand \${${e}} in ${JSON.stringify(whole)}`);
  });
}

function fail(message: string): never {
  throw new Error(message);
}
