import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The fenced blocks of the pages users read (README.md and docs/*.md) that the docs
 * test runs: shell blocks (`sh`, `bash`, `shell`) and CI recipes (`yaml`). A block may
 * carry a marker, an HTML comment on the line right before its fence, which GitHub and
 * npm do not show:
 *
 *   <!-- recipe: NAME -->                   run in the scenario NAME (what the prose around it says happened before)
 *   <!-- recipe: needs a real account -->   syntax-checked only: it needs what the emulator cannot stand in for
 *
 * Any other block runs in the default scenario: the scratch project with the deployed
 * example, against the emulator.
 */
export interface Block {
  /** `README.md:21`: the page and the line of the opening fence. */
  readonly where: string;
  readonly page: string;
  readonly lang: 'shell' | 'yaml';
  readonly text: string;
  /** The marker's text after `recipe:`, if any. */
  readonly marker?: string;
}

const SHELL = new Set(['sh', 'bash', 'shell']);

/** The pages: README.md and every docs/*.md (the generated reference pages below docs/ hold no recipes). */
export function pages(root: string): string[] {
  return ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

export function blocksOf(root: string, page: string): Block[] {
  const lines = readFileSync(join(root, page), 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) throw new Error(`${page}:${i + 1}: a fence that is never closed`);
    const info = open[1].toLowerCase();
    const lang = SHELL.has(info) ? 'shell' : info === 'yaml' || info === 'yml' ? 'yaml' : undefined;
    if (lang) {
      const marker = /^<!--\s*recipe:\s*(.*?)\s*-->\s*$/.exec(lines[i - 1] ?? '')?.[1];
      out.push({ where: `${page}:${i + 1}`, page, lang, text: lines.slice(i + 1, end).join('\n'), ...(marker ? { marker } : {}) });
    }
    i = end;
  }
  return out;
}

export function allBlocks(root: string): Block[] {
  return pages(root).flatMap((page) => blocksOf(root, page));
}
