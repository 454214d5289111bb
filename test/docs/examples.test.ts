import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { pagePath } from '../../scripts/docs/pages';
import { API_KEY, startTestEmulator, TestEmulator } from '../helpers/emulator';
import { builtProviderInstaller, E2E_TIMEOUT_MS, requireTerraform, tempDir, terraform } from '../e2e/support';

/**
 * The examples the docs include, through the real Terraform and the installed
 * provider: all of them in one working directory (each example a module, so one
 * `terraform init` serves them all), validated; the resource examples applied against
 * the emulator, then imported again by their import.sh ids. The same directory's
 * `terraform providers schema -json` is checked against the generated pages: every
 * attribute of the schema is documented with its description, and every attribute a
 * page names exists.
 */

interface Example { category: 'resources' | 'data-sources' | 'ephemeral-resources' | 'provider'; typeName: string; dir: string; module: string }

let tf: string;
let emu: TestEmulator;
let ws: string;
let source: string;
const examples: Example[] = [];

const env = (): NodeJS.ProcessEnv => ({ RESELLER_API_KEY: API_KEY, RESELLER_POLL_INTERVAL: '100ms', ...variableValues() });
const variables = new Map<string, { ephemeral: boolean }>();
const variableValues = () => Object.fromEntries([...variables.keys()].map((name) => [`TF_VAR_${name}`, `Example-${name}-Passw0rd!`]));
const resourceModules = () => examples.filter((e) => e.category === 'resources').map((e) => `-target=module.${e.module}`);

function listExamples(): Example[] {
  const out: Example[] = [{ category: 'provider', typeName: 'provider', dir: join(REPO_ROOT, 'examples', 'provider'), module: 'provider' }];
  for (const category of ['resources', 'data-sources', 'ephemeral-resources'] as const) {
    const root = join(REPO_ROOT, 'examples', category);
    if (!existsSync(root)) continue;
    for (const typeName of readdirSync(root).sort()) {
      out.push({ category, typeName, dir: join(root, typeName), module: `${category.replace(/-/g, '_')}_${typeName}` });
    }
  }
  return out;
}

/** Copies each example into its own module folder and writes the root module that calls them all. */
function writeWorkspace(): void {
  const modules: string[] = [];
  for (const example of examples) {
    const target = join(ws, example.module);
    mkdirSync(target, { recursive: true });
    for (const file of readdirSync(example.dir).filter((f) => f.endsWith('.tf'))) cpSync(join(example.dir, file), join(target, file));
    const text = readdirSync(example.dir).filter((f) => f.endsWith('.tf')).map((f) => readFileSync(join(example.dir, f), 'utf8')).join('\n');
    if (!/required_providers/.test(text)) {
      writeFileSync(join(target, 'versions.tf'), `terraform {\n  required_providers {\n    reseller = { source = "${source}" }\n  }\n}\n`);
    }
    const inputs: string[] = [];
    for (const m of text.matchAll(/variable\s+"([^"]+)"\s*\{([^}]*)\}/g)) {
      variables.set(m[1], { ephemeral: /ephemeral\s*=\s*true/.test(m[2]) });
      inputs.push(`  ${m[1]} = var.${m[1]}`);
    }
    modules.push(`module "${example.module}" {\n  source = "./${example.module}"\n${inputs.join('\n')}\n}`);
  }
  const vars = [...variables].map(([name, v]) => `variable "${name}" {\n  type      = string\n  sensitive = true\n${v.ephemeral ? '  ephemeral = true\n' : ''}}`);
  writeFileSync(join(ws, 'main.tf'), [
    `terraform {\n  required_providers {\n    reseller = { source = "${source}" }\n  }\n}`,
    `provider "reseller" {\n  api_url = "${emu.url}"\n}`,
    ...vars,
    ...modules,
  ].join('\n\n') + '\n');
}

beforeAll(async () => {
  tf = requireTerraform();
  const installer = builtProviderInstaller();
  source = installer.PROVIDER_SOURCE;
  examples.push(...listExamples());
  emu = await startTestEmulator({ provisionDelayMs: 200 });
  ws = tempDir('docs-examples');
  installer.installProvider(join(ws, 'terraform.d', 'plugins'));
  writeWorkspace();
  await terraform(tf, ['init', '-input=false', '-no-color'], ws, env());
}, E2E_TIMEOUT_MS);

afterAll(async () => {
  await emu?.stop();
  if (ws) rmSync(ws, { recursive: true, force: true });
  if (emu) rmSync(emu.dir, { recursive: true, force: true });
});

describe('the docs examples with real Terraform', () => {
  it('every example passes terraform validate', async () => {
    expect(examples.filter((e) => e.category === 'resources').length).toBeGreaterThan(0);
    const result = await terraform(tf, ['validate', '-no-color', '-json'], ws, env(), [0, 1]);
    const report = JSON.parse(result.stdout);
    expect({ valid: report.valid, problems: report.diagnostics.map((d: any) => `${d.severity}: ${d.summary} (${d.range?.filename ?? ''})`) })
      .toEqual({ valid: true, problems: [] });
  }, E2E_TIMEOUT_MS);

  it('the resource examples apply against the emulator, leave an empty plan, and import by their import.sh ids', async () => {
    await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color', ...resourceModules()], ws, env());
    const account = emu.account();
    expect(account.packages.map((p) => p.name)).toEqual(expect.arrayContaining(['example.com', 'example-shop.com']));
    const plan = await terraform(tf, ['plan', '-input=false', '-no-color', '-detailed-exitcode', ...resourceModules()], ws, env(), [0, 2]);
    expect({ code: plan.code, output: plan.code ? plan.stdout : '' }).toEqual({ code: 0, output: '' });

    // Forget every object, then import each by the id its import.sh gives.
    const imports: string[] = [];
    for (const e of examples.filter((x) => x.category === 'resources')) {
      const script = readFileSync(join(e.dir, 'import.sh'), 'utf8');
      for (const m of script.matchAll(/terraform import\s+(\S+)\s+(\S+)/g)) {
        expect(m[1].startsWith(`${e.typeName}.`)).toBe(true);
        imports.push(`import {\n  to = module.${e.module}.${m[1]}\n  id = "${m[2]}"\n}`);
      }
    }
    const state = await terraform(tf, ['state', 'list'], ws, env());
    const addresses = state.stdout.split('\n').filter(Boolean);
    await terraform(tf, ['state', 'rm', ...addresses], ws, env());
    writeFileSync(join(ws, 'imports.tf'), `${imports.join('\n\n')}\n`);
    const importPlan = await terraform(tf, ['plan', '-input=false', '-no-color', ...resourceModules()], ws, env());
    expect(importPlan.stdout).toMatch(new RegExp(`Plan: ${imports.length} to import`));
    rmSync(join(ws, 'imports.tf'));
  }, E2E_TIMEOUT_MS * 2);

  it('the reseller_domains example lists the registrations expiring within 30 days, and reseller_domain one registration, against the emulator', async () => {
    writeFileSync(join(ws, 'domains-outputs.tf'), [
      'output "expiring" {\n  value = module.data_sources_reseller_domains.expiring_within_30_days\n}',
      'output "nameservers" {\n  value = module.data_sources_reseller_domain.registered_nameservers\n}',
    ].join('\n\n') + '\n');
    try {
      await terraform(tf, ['apply', '-auto-approve', '-input=false', '-no-color', '-target=module.data_sources_reseller_domains', '-target=module.data_sources_reseller_domain'], ws, env());
      const outputs = JSON.parse((await terraform(tf, ['output', '-json'], ws, env())).stdout);
      // The emulator's fixture registrations: example-blog.com expires 20 days after the account was made.
      expect(outputs.expiring.value).toEqual(['example-blog.com']);
      expect(outputs.nameservers.value).toEqual(['ada.ns.cloudflare.com', 'bob.ns.cloudflare.com']);
    } finally {
      rmSync(join(ws, 'domains-outputs.tf'));
    }
  }, E2E_TIMEOUT_MS);

  it('every attribute of `terraform providers schema -json` is in the docs with its description, and the docs name no other', async () => {
    const result = await terraform(tf, ['providers', 'schema', '-json'], ws, env());
    const all = JSON.parse(result.stdout).provider_schemas as Record<string, any>;
    const schemas = Object.entries(all).find(([address]) => address.endsWith(source))![1];
    const pages: [string, any][] = [
      ['docs/index.md', schemas.provider],
      ...Object.entries(schemas.resource_schemas ?? {}).map(([t, s]) => [pagePath('resources', t), s] as [string, any]),
      ...Object.entries(schemas.data_source_schemas ?? {}).map(([t, s]) => [pagePath('data-sources', t), s] as [string, any]),
      ...Object.entries(schemas.ephemeral_resource_schemas ?? {}).map(([t, s]) => [pagePath('ephemeral-resources', t), s] as [string, any]),
    ];
    const problems: string[] = [];
    for (const [page, schema] of pages) {
      const file = join(REPO_ROOT, page);
      if (!existsSync(file)) {
        problems.push(`${page} is missing`);
        continue;
      }
      const documented = documentedAttributes(readFileSync(file, 'utf8'));
      const declared = schemaAttributes(schema.block);
      for (const [path, attr] of declared) {
        const line = documented.get(path);
        if (line === undefined) problems.push(`${page}: ${path} is not documented`);
        else if (attr.description && !line.includes(attr.description)) problems.push(`${page}: ${path} lacks its schema description`);
        if (attr.description && attr.description_kind !== 'markdown') problems.push(`${page}: ${path} description_kind is ${attr.description_kind}`);
      }
      for (const path of documented.keys()) if (!declared.has(path)) problems.push(`${page}: documents ${path}, which the schema does not have`);
    }
    expect(problems).toEqual([]);
  }, E2E_TIMEOUT_MS);
});

/** Attribute and block paths of a schema block (`timeouts.create`), from Terraform's JSON. */
function schemaAttributes(block: any, prefix = ''): Map<string, { description?: string; description_kind?: string }> {
  const out = new Map<string, { description?: string; description_kind?: string }>();
  for (const [name, attr] of Object.entries<any>(block.attributes ?? {})) {
    out.set(prefix + name, attr);
    for (const key of Object.keys(objectTypeOf(attr.type) ?? {})) out.set(`${prefix}${name}.${key}`, {});
    if (attr.nested_type) for (const [p, a] of schemaAttributes(attr.nested_type, `${prefix}${name}.`)) out.set(p, a);
  }
  for (const [name, nested] of Object.entries<any>(block.block_types ?? {})) {
    out.set(prefix + name, nested.block);
    for (const [p, a] of schemaAttributes(nested.block, `${prefix}${name}.`)) out.set(p, a);
  }
  return out;
}

/** The attributes of an object type, or of a collection's object element type. */
function objectTypeOf(type: unknown): Record<string, unknown> | undefined {
  if (!Array.isArray(type)) return undefined;
  return type[0] === 'object' ? type[1] : objectTypeOf(type[1]);
}

/** Attribute paths a page's "## Schema" section names, each with its line. */
function documentedAttributes(page: string): Map<string, string> {
  const out = new Map<string, string>();
  const start = page.indexOf('\n## Schema\n');
  if (start < 0) return out;
  const end = page.indexOf('\n## ', start + 1);
  let parent = '';
  for (const line of page.slice(start, end < 0 ? undefined : end).split('\n')) {
    const nested = /^### Nested Schema for `([^`]+)`/.exec(line);
    if (nested) parent = `${nested[1]}.`;
    const item = /^- `([^`]+)` \(/.exec(line);
    if (item) out.set(parent + item[1], line);
  }
  return out;
}
