import { parseYaml, Yaml } from './yaml';

/**
 * A CI recipe of the docs as the docs test runs it: each job's steps in order, with the
 * environment the recipe sets (workflow, job and step `env` for GitHub Actions;
 * `variables` for GitLab CI). `uses:` steps (checkout, setup-node, setup-terraform,
 * upload-artifact) are what the scratch project already has; a `run:` or `script:` line
 * is run as the runner runs it (`bash -e -o pipefail`).
 */
export interface CiStep {
  readonly name: string;
  /** The shell text, expressions not yet evaluated; undefined for a `uses:` step. */
  readonly run?: string;
  readonly uses?: string;
  readonly env: Record<string, string>;
  /** `if:`, without `${{ }}`; undefined: run while the job has not failed. */
  readonly condition?: string;
  readonly workingDirectory?: string;
  /** The step's marker (`# recipe: ...` on its first line): what it needs that the test cannot give. */
  readonly marker?: string;
}

export interface CiJob {
  readonly name: string;
  readonly condition?: string;
  readonly env: Record<string, string>;
  readonly steps: CiStep[];
}

export interface CiRecipe {
  readonly kind: 'github' | 'gitlab';
  readonly jobs: CiJob[];
}

const obj = (y: Yaml | undefined, what: string): Record<string, Yaml> => {
  if (y === undefined) return {};
  if (typeof y !== 'object' || Array.isArray(y)) throw new Error(`${what} must be a mapping`);
  return y;
};
const str = (y: Yaml | undefined, what: string): string | undefined => {
  if (y === undefined) return undefined;
  if (typeof y !== 'string') throw new Error(`${what} must be a string`);
  return y;
};
const env = (y: Yaml | undefined, what: string): Record<string, string> =>
  Object.fromEntries(Object.entries(obj(y, what)).map(([k, v]) => [k, str(v, `${what}.${k}`)!]));
const markerOf = (comment: Yaml | undefined) => (typeof comment === 'string' ? /^recipe:\s*(.+)$/.exec(comment)?.[1] : undefined);
const unwrap = (condition: string | undefined) => condition?.replace(/^\$\{\{\s*([\s\S]*?)\s*\}\}$/, '$1');

/** Jobs of a GitHub Actions workflow or a .gitlab-ci.yml, from the recipe's YAML. */
export function readRecipe(text: string): CiRecipe {
  const doc = obj(parseYaml(text), 'the recipe');
  if (doc.jobs !== undefined) {
    const top = env(doc.env, 'env');
    const jobs = Object.entries(obj(doc.jobs, 'jobs')).map(([name, y]): CiJob => {
      const job = obj(y, `jobs.${name}`);
      const steps = job.steps;
      if (!Array.isArray(steps)) throw new Error(`jobs.${name}.steps must be a list`);
      return {
        name,
        condition: unwrap(str(job.if, `jobs.${name}.if`)),
        env: { ...top, ...env(job.env, `jobs.${name}.env`) },
        steps: steps.map((s, i): CiStep => {
          const step = obj(s, `jobs.${name}.steps[${i}]`);
          const run = str(step.run, 'run');
          const uses = str(step.uses, 'uses');
          if (!run && !uses) throw new Error(`jobs.${name}.steps[${i}] has neither run nor uses`);
          return {
            name: str(step.name, 'name') ?? run?.split('\n')[0] ?? uses!,
            run, uses, env: env(step.env, 'env'),
            condition: unwrap(str(step.if, 'if')),
            workingDirectory: str(step['working-directory'], 'working-directory'),
            marker: markerOf(step['#']),
          };
        }),
      };
    });
    return { kind: 'github', jobs };
  }
  // GitLab CI: every top-level mapping with a `script` is a job; `variables` at both levels.
  const top = env(doc.variables, 'variables');
  const jobs = Object.entries(doc).filter(([, y]) => typeof y === 'object' && !Array.isArray(y) && (y as Record<string, Yaml>).script !== undefined)
    .map(([name, y]): CiJob => {
      const job = obj(y, name);
      const lines = [...((job.before_script as Yaml[] | undefined) ?? []), ...(job.script as Yaml[])];
      return {
        name,
        env: { ...top, ...env(job.variables, `${name}.variables`) },
        // GitLab runs a job's script lines in one shell, stopping at the first that fails.
        steps: [{ name: 'script', run: `${lines.map((l) => str(l, `${name}.script`)).join('\n')}\n`, env: {} }],
      };
    });
  if (jobs.length === 0) throw new Error('neither a GitHub Actions workflow (jobs:) nor a GitLab CI file (a job with script:)');
  return { kind: 'gitlab', jobs };
}

/** What `${{ ... }}` may read: the recipe's secrets and variables as the test gives them, the event, the job's env. */
export interface Context {
  readonly secrets: Record<string, string>;
  readonly vars: Record<string, string>;
  readonly github: Record<string, string>;
  readonly env: Record<string, string>;
}

/** The value of one expression path (`secrets.X`, `vars.Y`, `github.event.pull_request.number`, `env.Z`). */
function lookup(path: string, ctx: Context): string {
  const [scope, ...rest] = path.split('.');
  const name = rest.join('.');
  const table = scope === 'secrets' ? ctx.secrets : scope === 'vars' ? ctx.vars : scope === 'github' ? ctx.github : scope === 'env' ? ctx.env : undefined;
  if (!table || table[name] === undefined) throw new Error(`the recipe reads \${{ ${path} }}, which the docs test does not give`);
  return table[name];
}

/** The text with every `${{ path }}` replaced, as the runner does before a step runs. */
export function substitute(text: string, ctx: Context): string {
  return text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_m, path: string) => lookup(path, ctx));
}

/** Whether a step (or job) runs: `always()`, `!cancelled()`, `success()`, `failure()`, `github.event_name ==/!= '...'`. */
export function holds(condition: string | undefined, failed: boolean, ctx: Context): boolean {
  if (condition === undefined) return !failed;
  const c = condition.trim();
  if (c === 'always()' || c === '!cancelled()') return true;
  if (c === 'success()') return !failed;
  if (c === 'failure()') return failed;
  const m = /^github\.event_name\s*(==|!=)\s*'([^']*)'$/.exec(c);
  if (m) return !failed && ((ctx.github.event_name === m[2]) === (m[1] === '=='));
  throw new Error(`the docs test cannot evaluate the condition "${condition}"`);
}
