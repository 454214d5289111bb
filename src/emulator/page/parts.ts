import { Html, html } from './html';

/** Small pieces the page's sections share (each noun renders its own section, see nouns/<noun>/page.ts). */

/** `3 packages`, `1 package`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `HH:MM:SS UTC` of an ISO timestamp. */
export function clock(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(11, 19)} UTC`;
}

/** The green "enabled" or grey "disabled" badge. */
export function enabledBadge(enabled: boolean): Html {
  return enabled ? html`<span class="badge ok">enabled</span>` : html`<span class="badge off">disabled</span>`;
}

/** A muted remark such as "none" in place of a value. */
export function muted(text: string): Html {
  return html`<span class="sub">${text}</span>`;
}
