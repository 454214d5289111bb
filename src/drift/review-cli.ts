import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXIT } from '../protocol';
import { CommandError, CommandIo, usageErrors, processIo, runCommand, UsageError } from './io';
import { parsePlanText, renderReviewMarkdown, renderReviewText, REVIEW_CATEGORIES, ReviewCategory, reviewPlan } from './review';

export const REVIEW_USAGE = `usage: reseller-hosting review PLAN.json [--markdown] [--fail-on destructive,orphan]

Summarises a Terraform plan of reseller constructs for a pull request. PLAN.json is the
output of: terraform plan -out=tfplan && terraform show -json tfplan > PLAN.json
('-' reads it from standard input).

options:
  --markdown          print Markdown (for a pull-request comment) instead of plain text
  --json              print the review as JSON
  --fail-on LIST      exit 3 when one of these categories is present; a comma list of
                      ${REVIEW_CATEGORIES.join(', ')}
`;

/** `reseller-hosting review`. */
export async function runReviewCli(argv: string[], io: CommandIo = processIo()): Promise<number> {
  return runCommand('review', REVIEW_USAGE, io, async () => {
    const { values, positionals } = usageErrors(() => parseArgs({ args: argv, allowPositionals: true, strict: true, options: {
      markdown: { type: 'boolean' },
      json: { type: 'boolean' },
      'fail-on': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    } }));
    if (values.help) {
      io.stdout(REVIEW_USAGE);
      return EXIT.ok;
    }
    if (positionals.length !== 1) throw new UsageError(positionals.length ? `one plan file expected, got ${positionals.length}` : 'the plan JSON file is required');
    if (values.markdown && values.json) throw new UsageError('--markdown and --json exclude each other');
    const failOn = new Set<ReviewCategory>();
    for (const list of values['fail-on'] ?? []) {
      for (const raw of list.split(',')) {
        const category = raw.trim().toLowerCase();
        if (!category) continue;
        if (!(REVIEW_CATEGORIES as readonly string[]).includes(category)) {
          throw new UsageError(`--fail-on: unknown category "${raw.trim()}"; the categories are ${REVIEW_CATEGORIES.join(', ')}`);
        }
        failOn.add(category as ReviewCategory);
      }
    }
    const source = positionals[0];
    let text: string;
    try {
      text = source === '-' ? readFileSync(0, 'utf8') : readFileSync(resolve(io.cwd, source), 'utf8');
    } catch (err) {
      throw new CommandError(`cannot read ${source}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
    }
    let review;
    try {
      review = reviewPlan(parsePlanText(text.replace(/^\uFEFF/, ''), source));
    } catch (err) {
      throw new CommandError((err as Error).message);
    }
    if (values.json) io.stdout(`${JSON.stringify({ version: 1, ...review }, null, 2)}\n`);
    else io.stdout(values.markdown ? renderReviewMarkdown(review) : renderReviewText(review));
    const failing = [...failOn].filter((c) => review.counts[c] > 0);
    if (failing.length) {
      io.stderr(`reseller-hosting review: the plan has ${failing.map((c) => `${review.counts[c]} ${c}`).join(', ')} (--fail-on ${[...failOn].join(',')})\n`);
      return EXIT.reviewFailed;
    }
    return EXIT.ok;
  });
}
