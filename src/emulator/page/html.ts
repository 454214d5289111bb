/**
 * Safe HTML building for the control-panel page: every interpolated value is escaped
 * unless it is already an `Html` fragment built the same way. There is no other way
 * to put text into the page, so a value from the state (a label, a brand name, a
 * contact field, a path segment) can never become markup.
 */

/** A fragment of markup whose every value was escaped when it was built. */
export class Html {
  /** Use the `html` tag (or `raw` for a trusted constant); never wrap unescaped input. */
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** What may be interpolated: text (escaped), fragments (kept), lists of either. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Escapes text for element content and for quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]);
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.text;
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Template tag: `html\`<td>${name}</td>\`` escapes `name`; `null`, `undefined`, `false` render nothing. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** A trusted constant (the stylesheet, a fixed entity): never pass state values here. */
export function raw(text: string): Html {
  return new Html(text);
}

/** Joins fragments with a separator (escaped like any value unless it is Html). */
export function join(items: readonly HtmlValue[], separator: HtmlValue): Html {
  return new Html(items.map(render).join(render(separator)));
}

/**
 * The URL when it is an absolute http(s) URL, normalised; otherwise undefined (so a
 * `javascript:` or `data:` logo is never put into the page).
 */
export function httpUrl(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
