import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { REPO_ROOT } from '../lib/terraform';
import { apiReference } from './api-reference';
import { Category, examplePaths, indexPage, pagePath, ReadFile, typePage } from './pages';
import { loadProviderDocsSource, ProviderDocsSource } from './schema-source';
import { byCodePoint } from './order';

/**
 * `npm run docs`: writes every generated page from the code (the provider's schema,
 * the constructs' JSDoc) and the hand-written inputs (templates/, examples/). Output is
 * deterministic (sorted, no dates), so test/docs/ can fail when a committed page
 * differs from what this writes now.
 */

/** Folders whose every file is generated: a file the generator no longer writes is removed. */
export const GENERATED_DIRS = ['docs/resources', 'docs/data-sources', 'docs/ephemeral-resources', 'docs/api'] as const;
export const INDEX_TEMPLATE = 'templates/index.md.tmpl';

export function repoReader(root: string = REPO_ROOT): ReadFile {
  return (path) => {
    const file = join(root, path);
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  };
}

/** Every generated file: repository-relative path -> content, sorted by path. */
export async function generatedFiles(root: string = REPO_ROOT, source?: ProviderDocsSource): Promise<Map<string, string>> {
  const read = repoReader(root);
  const docs = source ?? (await loadProviderDocsSource());
  const template = read(INDEX_TEMPLATE);
  if (template === undefined) throw new Error(`${INDEX_TEMPLATE} is missing`);
  const files: [string, string][] = [['docs/index.md', indexPage(docs, template, read)]];
  const add = (category: Category, types: ProviderDocsSource['resources']) => {
    for (const type of types) files.push([pagePath(category, type.typeName), typePage(category, type, read)]);
  };
  add('resources', docs.resources);
  add('data-sources', docs.dataSources);
  add('ephemeral-resources', docs.ephemeralResources);
  for (const [path, text] of apiReference(root)) files.push([path, text]);
  return new Map(files.sort(([a], [b]) => byCodePoint(a, b)));
}

/** Examples a page would include but that nobody has written yet. */
export function missingExamples(docs: ProviderDocsSource, root: string = REPO_ROOT): string[] {
  const paths = [
    ...docs.resources.flatMap((t) => Object.values(examplePaths('resources', t.typeName))),
    ...docs.dataSources.flatMap((t) => Object.values(examplePaths('data-sources', t.typeName))),
    ...docs.ephemeralResources.flatMap((t) => Object.values(examplePaths('ephemeral-resources', t.typeName))),
  ];
  return paths.filter((p): p is string => Boolean(p) && !existsSync(join(root, p!)));
}

/** Files under the generated folders (repository-relative), whether or not the generator writes them. */
export function filesInGeneratedDirs(root: string = REPO_ROOT): string[] {
  const walk = (dir: string): string[] => (existsSync(join(root, dir))
    ? readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(`${dir}/${e.name}`) : [`${dir}/${e.name}`]))
    : []);
  return GENERATED_DIRS.flatMap(walk).sort();
}

async function main(): Promise<void> {
  const docs = await loadProviderDocsSource();
  const files = await generatedFiles(REPO_ROOT, docs);
  for (const stale of filesInGeneratedDirs().filter((p) => !files.has(p))) {
    rmSync(join(REPO_ROOT, stale));
    process.stdout.write(`removed ${stale}\n`);
  }
  let changed = 0;
  for (const [path, text] of files) {
    const file = join(REPO_ROOT, path);
    if (existsSync(file) && readFileSync(file, 'utf8') === text) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    changed++;
    process.stdout.write(`wrote ${path}\n`);
  }
  process.stdout.write(`${files.size} generated files, ${changed} changed\n`);
  const missing = missingExamples(docs);
  if (missing.length) {
    process.stderr.write(`examples to write (the pages go without them, and test/docs fails until they exist):\n${missing.map((p) => `  ${p}\n`).join('')}`);
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`npm run docs: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
