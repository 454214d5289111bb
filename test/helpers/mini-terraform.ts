import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';

/**
 * A tiny stand-in for `terraform apply` over a synthesized cdk.tf.json, for the
 * handler's integration tests: it runs the EXACT provisioners the constructs wrote
 * (interpreter, command, environment) in dependency order, replaces a resource when
 * its resolved replace-triggers change, and runs destroy provisioners with the
 * triggers stored in its state, as Terraform does. Only the expressions our
 * constructs emit are understood; anything else fails the test loudly. The real
 * engine is exercised by the e2e tests.
 */
export interface ProvisionerRun {
  address: string;
  command: string;
  code: number;
  stdout: string;
  stderr: string;
}

interface ResourceConfig {
  address: string;
  type: string;
  name: string;
  body: Record<string, any>;
}

interface StateEntry {
  id: string;
  triggers: Record<string, string>;
  deps: string[];
  destroyProvisioners: Array<Record<string, any>>;
  triggerKey: string;
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

  /** Applies a configuration; returns the provisioner runs of this apply. */
  async apply(config: any): Promise<ProvisionerRun[]> {
    const start = this.runs.length;
    const resources = listResources(config).filter((r) => r.body.count !== 0);
    const order = topoSort(resources);
    const planned = new Map<string, { id: string; triggers: Record<string, string>; replace: boolean }>();
    const idOf = (address: string) => planned.get(address)?.id ?? this.state.get(address)?.id ?? fail(`unknown resource ${address}`);
    for (const r of order) {
      const triggerKey = r.body.triggers_replace !== undefined ? 'triggers_replace' : 'triggers';
      const old = this.state.get(r.address);
      const ownId = old?.id ?? 'pending';
      const triggers = resolveValue(r.body[triggerKey] ?? {}, { idOf, selfId: ownId, vars: this.vars }) as Record<string, string>;
      const replace = !old || !isDeepStrictEqual(old.triggers, triggers);
      planned.set(r.address, { id: replace ? randomUUID() : old!.id, triggers, replace });
    }
    // Destroy: resources gone from the configuration and those being replaced, dependents first.
    const doomed = [...this.state.keys()].filter((a) => !planned.has(a) || planned.get(a)!.replace);
    for (const address of this.reverseDestroyOrder(doomed)) {
      const entry = this.state.get(address)!;
      for (const p of entry.destroyProvisioners) {
        const selfTriggers = entry.triggers;
        const env = resolveValue(p.environment ?? {}, {
          idOf, selfId: entry.id, vars: this.vars, selfTriggers, triggerKey: entry.triggerKey,
        }) as Record<string, string>;
        await this.run(address, p, env);
      }
      this.state.delete(address);
    }
    // Create, in dependency order.
    for (const r of order) {
      const plan = planned.get(r.address)!;
      if (!plan.replace) continue;
      const triggerKey = r.body.triggers_replace !== undefined ? 'triggers_replace' : 'triggers';
      const provisioners: Array<Record<string, any>> = (r.body.provisioner ?? []).map((p: any) => p['local-exec']);
      for (const p of provisioners.filter((p) => p.when !== 'destroy')) {
        const env = resolveValue(p.environment ?? {}, {
          idOf, selfId: plan.id, vars: this.vars, selfTriggers: plan.triggers, triggerKey,
        }) as Record<string, string>;
        await this.run(r.address, p, env); // throws: the resource stays out of the state (tainted)
      }
      this.state.set(r.address, {
        id: plan.id,
        triggers: plan.triggers,
        deps: referencedAddresses(r.body),
        destroyProvisioners: provisioners.filter((p) => p.when === 'destroy'),
        triggerKey,
      });
    }
    return this.runs.slice(start);
  }

  /** `terraform destroy`: every resource in the state, dependents first. */
  async destroy(): Promise<ProvisionerRun[]> {
    return this.apply({ resource: {} });
  }

  private reverseDestroyOrder(addresses: string[]): string[] {
    const set = new Set(addresses);
    const out: string[] = [];
    const visit = (a: string, seen: Set<string>) => {
      if (seen.has(a) || !set.has(a)) return;
      seen.add(a);
      for (const [other, entry] of this.state) if (entry.deps.includes(a)) visit(other, seen);
      out.push(a);
    };
    const seen = new Set<string>();
    for (const a of addresses) visit(a, seen);
    return out;
  }

  private run(address: string, p: Record<string, any>, env: Record<string, string>): Promise<ProvisionerRun> {
    const [bin, ...args] = p.interpreter as string[];
    return new Promise((resolve, reject) => {
      const child = spawn(bin, [...args, p.command], { cwd: this.stackDir, env: { ...this.env, ...env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => {
        const run = { address, command: p.command, code: code ?? 1, stdout, stderr };
        this.runs.push(run);
        if (run.code === 0) resolve(run);
        else reject(new ProvisionerFailed(run));
      });
    });
  }
}

function listResources(config: any): ResourceConfig[] {
  const out: ResourceConfig[] = [];
  for (const [type, byName] of Object.entries<any>(config.resource ?? {})) {
    for (const [name, body] of Object.entries<any>(byName)) out.push({ address: `${type}.${name}`, type, name, body });
  }
  return out;
}

function referencedAddresses(body: unknown): string[] {
  const found = new Set<string>();
  JSON.stringify(body).replace(/\b((?:terraform_data|null_resource)\.[A-Za-z0-9_-]+)\.id\b/g, (_, a: string) => {
    found.add(a);
    return '';
  });
  return [...found];
}

function topoSort(resources: ResourceConfig[]): ResourceConfig[] {
  const byAddress = new Map(resources.map((r) => [r.address, r]));
  const out: ResourceConfig[] = [];
  const seen = new Set<string>();
  const visit = (r: ResourceConfig) => {
    if (seen.has(r.address)) return;
    seen.add(r.address);
    for (const dep of referencedAddresses(r.body)) {
      const d = byAddress.get(dep);
      if (d) visit(d);
    }
    out.push(r);
  };
  resources.forEach(visit);
  return out;
}

interface Scope {
  idOf(address: string): string;
  selfId: string;
  vars: Record<string, string>;
  selfTriggers?: Record<string, string>;
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
  return text.replace(/\$\{([^}]*)\}/g, (_, expr: string) => {
    const e = expr.trim();
    if (e === 'self.id') return scope.selfId;
    let m = /^(?:terraform_data|null_resource)\.[A-Za-z0-9_-]+(?=\.id$)/.exec(e);
    if (m) return scope.idOf(m[0]);
    m = /^var\.([A-Za-z0-9_-]+)$/.exec(e);
    if (m) return scope.vars[m[1]] ?? fail(`variable ${m[1]} has no value`);
    m = /^jsonencode\(self\.(triggers_replace|triggers)\)$/.exec(e);
    if (m) {
      if (m[1] !== scope.triggerKey || !scope.selfTriggers) fail(`self.${m[1]} is not this resource's trigger attribute`);
      return JSON.stringify(scope.selfTriggers);
    }
    return fail(`mini-terraform does not understand \${${e}}`);
  });
}

function fail(message: string): never {
  throw new Error(message);
}
