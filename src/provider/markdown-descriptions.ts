/**
 * Every description of the provider's schemas is markdown (backticks, links): the
 * generated docs (`npm run docs`) print the same text, so `description_kind: markdown`
 * lets editors and `terraform providers schema -json` render it as the docs do.
 * Applied to the whole GetProviderSchema answer as the plugin serves it (serve.ts), so
 * a new schema (a data source, an attribute) needs nothing of its own.
 */

/** tfplugin6 StringKind.MARKDOWN. */
export const STRING_KIND_MARKDOWN = 1;

type SchemaServer = { GetProviderSchema?: (...args: any[]) => Promise<any> };

/** The handlers, with GetProviderSchema answering every description as markdown. */
export function withMarkdownDescriptions<H extends SchemaServer>(handlers: H): H {
  const inner = handlers.GetProviderSchema;
  if (!inner) return handlers;
  return { ...handlers, GetProviderSchema: async (...args: unknown[]) => markDescriptions(await inner.apply(handlers, args)) };
}

/** A copy of a schema message (or any message holding schemas) with `descriptionKind` set wherever a description is. */
export function markDescriptions<T>(message: T): T {
  return mark(message) as T;
}

function mark(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(mark);
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = mark(inner);
  if (typeof out.description === 'string' && out.description) out.descriptionKind = STRING_KIND_MARKDOWN;
  return out;
}
