import { randomUUID } from 'node:crypto';
import { TerraformJson } from './stacks';
import { timeProcess } from './stats';

/**
 * Runs the create-time provisioners of a synthesized stack exactly as written
 * (interpreter, command, environment), in dependency order, with up to `parallelism`
 * at once as `terraform apply` does (its default is 10). Only what the constructs emit
 * is understood: `${self.id}`, `${terraform_data.X.id}`, `${var.X}` and `depends_on`.
 * test/helpers/mini-terraform.ts is the full (sequential) stand-in used by the tests;
 * this one only creates, but in parallel, so that a 400-package stack takes minutes.
 */
export interface ProvisionerRun {
  address: string;
  command: string;
  ms: number;
}

interface Node {
  address: string;
  id: string;
  deps: string[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  provisioners: Array<Record<string, any>>;
}

export async function applyCreates(
  json: TerraformJson,
  options: { cwd: string; env: NodeJS.ProcessEnv; vars: Record<string, string>; parallelism: number },
): Promise<ProvisionerRun[]> {
  const nodes = new Map<string, Node>();
  for (const [type, byName] of Object.entries(json.resource ?? {})) {
    for (const [name, body] of Object.entries(byName)) {
      if (body.count === 0) continue;
      const address = `${type}.${name}`;
      const deps = new Set<string>();
      JSON.stringify(body).replace(/\b((?:terraform_data|null_resource)\.[A-Za-z0-9_-]+)\.id\b/g, (_m, a: string) => {
        deps.add(a);
        return '';
      });
      for (const d of (body.depends_on ?? []) as string[]) deps.add(d);
      const provisioners = ((body.provisioner ?? []) as Array<Record<string, Record<string, unknown>>>)
        .map((p) => p['local-exec'])
        .filter((p) => p && p.when !== 'destroy');
      nodes.set(address, { address, id: randomUUID(), deps: [...deps], provisioners });
    }
  }
  const resolve = (text: string, self: Node): string =>
    text.replace(/\$\{([^}]*)\}/g, (_m, expr: string) => {
      const e = expr.trim();
      if (e === 'self.id') return self.id;
      const ref = /^((?:terraform_data|null_resource)\.[A-Za-z0-9_-]+)\.id$/.exec(e);
      if (ref) return nodes.get(ref[1])?.id ?? fail(`unknown resource ${ref[1]}`);
      const v = /^var\.([A-Za-z0-9_-]+)$/.exec(e);
      if (v) return options.vars[v[1]] ?? fail(`variable ${v[1]} has no value`);
      return fail(`bench runner does not understand \${${e}}`);
    });

  const runs: ProvisionerRun[] = [];
  const done = new Map<string, Promise<void>>();
  let active = 0;
  const waiting: Array<() => void> = [];
  const slot = async () => {
    if (active >= options.parallelism) await new Promise<void>((r) => waiting.push(r));
    active++;
  };
  const release = () => {
    active--;
    waiting.shift()?.();
  };
  const create = (node: Node): Promise<void> => {
    let p = done.get(node.address);
    if (!p) {
      p = (async () => {
        await Promise.all(node.deps.map((d) => create(nodes.get(d) ?? fail(`unknown resource ${d}`))));
        await slot();
        try {
          for (const prov of node.provisioners) {
            const env: Record<string, string> = {};
            for (const [k, v] of Object.entries((prov.environment ?? {}) as Record<string, string>)) env[k] = resolve(String(v), node);
            const [bin, ...args] = prov.interpreter as string[];
            const run = await timeProcess(bin === 'node' ? process.execPath : bin, [...args, prov.command], {
              cwd: options.cwd, env: { ...options.env, ...env },
            });
            if (run.code !== 0) throw new Error(`${node.address} ${prov.command} exited ${run.code}: ${run.stderr.trim()}`);
            runs.push({ address: node.address, command: String(prov.command), ms: run.ms });
          }
        } finally {
          release();
        }
      })();
      done.set(node.address, p);
    }
    return p;
  };
  await Promise.all([...nodes.values()].map(create));
  return runs;
}

function fail(message: string): never {
  throw new Error(message);
}
