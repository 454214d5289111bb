import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CommandError, defineCommand, EXIT, jsonDocument, UsageError } from '../command';
import { parsePlanText, renderReviewMarkdown, renderReviewText, REVIEW_CATEGORIES, ReviewCategory, reviewPlan } from './review';

export { countsLine, parsePlanText, renderReviewMarkdown, renderReviewText, REVIEW_CATEGORIES, reviewPlan } from './review';
export type { FieldChange, Review, ReviewCategory, ReviewItem } from './review';

/** Version of the --json document's layout. */
export const REVIEW_DOCUMENT_VERSION = 1;

export const REVIEW_USAGE = `usage: reseller-hosting review PLAN.json [--markdown | --json] [--fail-on destructive,orphan]

Summarises a Terraform plan of reseller constructs for a pull request. PLAN.json is the
output of: terraform plan -out=tfplan && terraform show -json tfplan > PLAN.json
('-' reads it from standard input).

options:
  --markdown          print Markdown (for a pull-request comment) instead of plain text
  --json              print the review as JSON
  --fail-on LIST      exit 2 when one of these categories is present; a comma list of
                      ${REVIEW_CATEGORIES.join(', ')}
  --version           print the version

exit codes: 0 reviewed; 2 a --fail-on category is present; 1 the plan cannot be read;
64 usage error.
`;

/** `reseller-hosting review`. */
export const runReviewCli = defineCommand({
  name: 'review',
  usage: REVIEW_USAGE,
  options: {
    markdown: { type: 'boolean' },
    json: { type: 'boolean' },
    'fail-on': { type: 'string', multiple: true },
  },
  positionals: { min: 1, max: 1, what: 'the plan JSON file' },
  async run({ values, positionals }, io) {
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
    if (values.json) io.stdout(jsonDocument(REVIEW_DOCUMENT_VERSION, review));
    else io.stdout(values.markdown ? renderReviewMarkdown(review) : renderReviewText(review));
    const failing = [...failOn].filter((c) => review.counts[c] > 0);
    if (failing.length) {
      io.stderr(`reseller-hosting review: the plan has ${failing.map((c) => `${review.counts[c]} ${c}`).join(', ')} (--fail-on ${[...failOn].join(',')})\n`);
      return EXIT.differences;
    }
    return EXIT.ok;
  },
});
