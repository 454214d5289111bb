import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLOUD_SIZES, CLOUD_ZONES } from '../../src/protocol';
import { REPO_ROOT } from '../../scripts/lib/terraform';

/**
 * The sizes and zones a cloud server may have are in the docs themselves (not in a file
 * the repository lacks): docs/provider.md's tables hold exactly the protocol's, which the
 * constructs, the provider and the `reseller_cloud_server_specs` data source check against.
 */
const section = /## Cloud server sizes and zones\n([\s\S]*?)\n## /.exec(readFileSync(join(REPO_ROOT, 'docs', 'provider.md'), 'utf8'))?.[1] ?? '';

test('docs/provider.md lists every size of every provider with its CPU, RAM, disk and bandwidth', () => {
  for (const [provider, sizes] of Object.entries(CLOUD_SIZES)) {
    for (const [name, s] of Object.entries(sizes)) {
      expect(section).toContain(`| \`${name}\` | ${s.cpu} | ${s.ramGb} | ${s.diskGb} | ${s.bandwidth} |`);
    }
    expect(section).toMatch(new RegExp(`^\\| ${provider} \\(`, 'm'));
  }
  const rows = section.split('\n').filter((l) => /^\| `[\w-]+` \| \d/.test(l));
  expect(rows).toHaveLength(Object.values(CLOUD_SIZES).reduce((n, t) => n + Object.keys(t).length, 0));
});

test('docs/provider.md lists the zones of every provider', () => {
  for (const [provider, zones] of Object.entries(CLOUD_ZONES)) {
    expect(section).toContain(`| ${provider} | ${zones.map((z) => `\`${z}\``).join(', ')} |`);
  }
});
