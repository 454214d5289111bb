import { definitionOf, kindLabel } from '../../protocol';
import { CHANGE_CATEGORIES, Review, ReviewCategory, ReviewItem } from './classify';
import { rotationText } from './provider';

/** Rendering a review: plain text for terminals, Markdown for pull-request comments. */
const HEADINGS: Record<ReviewCategory, { text: string; markdown: string; explain: string }> = {
  destructive: { text: 'DESTRUCTIVE', markdown: ':warning: Destructive', explain: 'remote objects are deleted or replaced' },
  orphan: { text: 'ORPHANED', markdown: ':warning: Orphaned', explain: 'constructs removed from the code without absent: true; the remote objects stay, unmanaged' },
  retained: { text: 'RETAINED', markdown: ':warning: Retained cloud servers', explain: 'the API cannot cancel servers: they keep running' },
  updated: { text: 'UPDATED IN PLACE', markdown: 'Updated in place', explain: 'nothing is deleted' },
  created: { text: 'CREATED', markdown: 'Created', explain: 'new remote objects' },
  imported: { text: 'IMPORTED', markdown: 'Imported', explain: 'existing remote objects adopted by import blocks' },
  forgotten: { text: 'NO LONGER MANAGED', markdown: 'No longer managed', explain: 'removed blocks with destroy = false: the remote objects stay as they are, outside Terraform' },
  moved: { text: 'MOVED', markdown: 'Moved', explain: 'new addresses in the state for the same remote objects; nothing is written' },
  drift: {
    text: 'CHANGED OUTSIDE TERRAFORM',
    markdown: ':warning: Changed outside Terraform',
    explain: 'found by the refresh; the planned changes below set them back to the configuration',
  },
};

const MARK: Record<ReviewCategory, string> = { destructive: '!', orphan: '!', retained: '!', updated: '~', created: '+', imported: '<', forgotten: '-', moved: '>', drift: '*' };

/** Counts of the categories only some plans have (imports, removed blocks, moves, drift), only when present (other reviews read as before). */
function extraCounts(review: Review): string[] {
  const c = review.counts;
  return [
    c.imported ? `${c.imported} imported` : '', c.forgotten ? `${c.forgotten} no longer managed` : '',
    c.moved ? `${c.moved} moved` : '', c.drift ? `${c.drift} changed outside Terraform` : '',
  ].filter(Boolean);
}

export function countsLine(review: Review): string {
  const c = review.counts;
  const parts = [
    `${c.destructive} destructive`,
    `${c.orphan} orphaned`,
    `${c.retained} retained`,
    `${c.updated} updated in place`,
    `${c.created} created`,
  ];
  return `${[...parts, ...extraCounts(review)].join(', ')}; ${review.unchanged} unchanged`;
}

export function renderReviewText(review: Review): string {
  const lines = [`Reseller hosting plan review: ${countsLine(review)}`];
  for (const note of review.notes) lines.push(`note: ${note}`);
  if (review.drift.length) {
    lines.push('', `${HEADINGS.drift.text} (${HEADINGS.drift.explain}):`);
    for (const item of review.drift) lines.push(`  ${MARK.drift} ${item.summary}  [${item.address}]`);
  }
  if (review.items.length === 0) lines.push('', 'No reseller object changes.');
  for (const category of CHANGE_CATEGORIES) {
    const items = review.items.filter((i) => i.category === category);
    if (!items.length) continue;
    lines.push('', `${HEADINGS[category].text} (${HEADINGS[category].explain}):`);
    for (const item of items) lines.push(`  ${MARK[category]} ${item.summary}  [${item.address}]`);
  }
  if (review.otherChanges.length) {
    lines.push('', 'Other resources (not reseller constructs):');
    for (const line of review.otherChanges) lines.push(`  ${line}`);
  }
  return `${lines.join('\n')}\n`;
}

export function renderReviewMarkdown(review: Review): string {
  const c = review.counts;
  const bold = (n: number, text: string) => (n ? `**${n} ${text}**` : `${n} ${text}`);
  const lines = [
    '### Reseller hosting plan review',
    '',
    [
      bold(c.destructive, 'destructive'),
      bold(c.orphan, 'orphaned'),
      bold(c.retained, 'retained'),
      `${c.updated} updated in place`,
      `${c.created} created`,
      ...extraCounts(review).map((t) => (t.includes('outside') ? `**${t}**` : t)),
      `${review.unchanged} unchanged`,
    ].join(' · '),
  ];
  for (const note of review.notes) lines.push('', `> **Note:** ${md(note)}`);
  if (review.drift.length) {
    lines.push('', `#### ${HEADINGS.drift.markdown} (${review.drift.length})`, '', `_${md(HEADINGS.drift.explain)}_`, '');
    lines.push('| object | change | resource |', '|---|---|---|');
    for (const item of review.drift) lines.push(`| **${kindLabel(item.kind)} ${code(item.key)}** | ${md(item.change.replace(/^was /, ''))} | ${code(item.address)} |`);
  }
  if (review.items.length === 0) lines.push('', 'No reseller object changes.');
  for (const category of CHANGE_CATEGORIES) {
    const items = review.items.filter((i) => i.category === category);
    if (!items.length) continue;
    lines.push('', `#### ${HEADINGS[category].markdown} (${items.length})`, '', `_${md(HEADINGS[category].explain)}_`, '');
    lines.push('| object | change | resource |', '|---|---|---|');
    for (const item of items) {
      const name = `${kindLabel(item.kind)} ${code(item.key)}${item.newKey ? ` → ${code(item.newKey)}` : ''}`;
      const change = markdownChange(item);
      const strong = category === 'destructive' || category === 'orphan' || category === 'retained';
      lines.push(`| ${strong ? `**${name}**` : name} | ${change} | ${code(item.address)} |`);
    }
  }
  if (review.otherChanges.length) {
    lines.push('', '<details><summary>Other resources (not reseller constructs)</summary>', '');
    for (const line of review.otherChanges) lines.push(`- ${md(line)}`);
    lines.push('', '</details>');
  }
  return `${lines.join('\n')}\n`;
}

function markdownChange(item: ReviewItem): string {
  if (item.category === 'updated' && !item.address.startsWith('reseller_')) {
    const parts = item.changes.map((ch) => (ch.sensitive ? `${code(ch.field)}: (changed)` : `${code(ch.field)}: ${code(ch.before)} → ${code(ch.after)}`));
    const words = definitionOf(item.kind).secret?.words ?? 'secret';
    if (item.passwordRotation) parts.push(rotationText(words, md(item.passwordRotation.before), md(item.passwordRotation.after), '→'));
    return parts.join('<br>') || 'settings re-applied';
  }
  return md(item.change.replace(/^is /, ''));
}

/** Markdown-safe inline text (table cells included). */
function md(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/\n/g, ' ').replace(/([*_`[\]])/g, '\\$1');
}

/** An inline code span safe in a table cell. */
function code(text: string): string {
  const clean = text.replace(/\n/g, ' ').replace(/\|/g, '\\|');
  const fence = clean.includes('`') ? '`` ' : '`';
  return `${fence}${clean}${fence === '`` ' ? ' ``' : '`'}`;
}
