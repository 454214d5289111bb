import { STRING_KIND_MARKDOWN } from './wire/messages';

/**
 * Every description of the provider's schemas is markdown (backticks, links): the
 * generated docs (`npm run docs`) print the same text, so `description_kind: markdown`
 * lets editors and `terraform providers schema -json` render it as the docs do.
 * Applied to the whole GetProviderSchema answer, so a new schema (a data source, an
 * attribute) needs nothing of its own.
 */
export function withMarkdownDescriptions<T>(message: T): T {
  return mark(message) as T;
}

function mark(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mark);
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = mark(inner);
  if (typeof out.description === 'string' && out.description) out.descriptionKind = STRING_KIND_MARKDOWN;
  return out;
}
