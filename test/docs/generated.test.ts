import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../scripts/lib/terraform';
import { buildApiReference } from '../../scripts/docs/api-reference';
import { filesInGeneratedDirs, generatedFiles, missingExamples } from '../../scripts/docs/generate';
import { loadProviderDocsSource, ProviderDocsSource } from '../../scripts/docs/schema-source';

/**
 * The committed docs are what `npm run docs` writes now: a schema description, an
 * attribute, a construct's JSDoc or an example changed without re-running the
 * generator fails here, naming the file.
 */

const RERUN = 'run `npm run docs` and commit the result';
let source: ProviderDocsSource;
let files: Map<string, string>;

beforeAll(async () => {
  source = await loadProviderDocsSource();
  files = await generatedFiles(REPO_ROOT, source);
}, 60_000);

describe('generated docs', () => {
  it('every generated file on disk is what the generator writes now', () => {
    const stale: string[] = [];
    for (const [path, text] of files) {
      const file = join(REPO_ROOT, path);
      const onDisk = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
      if (onDisk !== text) stale.push(`${path} ${onDisk === undefined ? 'is missing' : 'differs'}`);
    }
    expect({ stale, fix: stale.length ? RERUN : '' }).toEqual({ stale: [], fix: '' });
  });

  it('the generated folders hold no page the generator no longer writes', () => {
    const extra = filesInGeneratedDirs().filter((p) => !files.has(p));
    expect({ extra, fix: extra.length ? RERUN : '' }).toEqual({ extra: [], fix: '' });
  });

  it('has a page for every resource type and data source of the schema, and the index links them all', () => {
    const index = files.get('docs/index.md')!;
    expect(source.resources.length).toBeGreaterThan(0);
    for (const t of [...source.resources, ...source.dataSources, ...source.ephemeralResources]) expect(index).toContain(`[\`${t.typeName}\`]`);
    expect(source.ephemeralResources.length).toBeGreaterThan(0);
  });

  it('an attribute page says what an import records of a creation-time choice, and only of those', () => {
    const importNote = /^- `([a-z_]+)` .*An import records the default/gm;
    const noted = (page: string) => [...files.get(page)!.matchAll(importNote)].map((m) => m[1]);
    expect(noted('docs/resources/cloud_server.md')).toEqual(['period_months']);
    expect(noted('docs/resources/dns_record.md')).toEqual(['replace_conflicting']);
    expect(noted('docs/resources/package.md')).toEqual([]);
  });

  it('every resource type and data source has its hand-written example (and resources their import.sh)', () => {
    expect(missingExamples(source)).toEqual([]);
  });

  it('every exported construct, prop and enum member has JSDoc, and every optional prop its @default', () => {
    const { undocumented, missingDefaults } = buildApiReference(REPO_ROOT);
    expect({ undocumented, missingDefaults }).toEqual({ undocumented: [], missingDefaults: [] });
  });

  it('the index names every environment variable the provider reads (in the template or an attribute description)', () => {
    const index = files.get('docs/index.md')!;
    const names = new Set<string>();
    for (const file of sourceFiles(join(REPO_ROOT, 'src', 'provider'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/env(?:\.|\[['"])(RESELLER_[A-Z_]+)/g)) names.add(m[1]);
    }
    expect(names.size).toBeGreaterThan(0);
    expect([...names].filter((n) => !new RegExp(`\\b${n}\\b`).test(index))).toEqual([]);
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}
