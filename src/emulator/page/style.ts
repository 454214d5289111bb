import { createHash } from 'node:crypto';

/**
 * The page's whole stylesheet, inlined in a <style> element (no extra request, no
 * build step). The Content-Security-Policy allows exactly this text by its hash.
 * Colours meet WCAG AA contrast (4.5:1 or more for text) on their backgrounds.
 */
export const STYLESHEET = `
:root { color-scheme: light; --bg: #f3f5f8; --card: #ffffff; --text: #1f2933; --muted: #4b5866;
  --border: #d5dde6; --accent: #1d4ed8; --bar: #12325a; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
a { color: var(--accent); }
a:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.topbar { background: var(--bar); color: #ffffff; padding: .7rem 2rem; display: flex; flex-wrap: wrap;
  align-items: center; justify-content: space-between; gap: .5rem 1.5rem; }
.topbar p { margin: 0; font-weight: 600; font-size: 1.05rem; }
.topbar a { color: #ffffff; }
.topbar ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
.topbar [aria-current="page"] { font-weight: 700; text-decoration-thickness: 3px; }
.tag { display: inline-block; margin-left: .5rem; padding: .05rem .55rem; border-radius: 999px; background: #fcd34d;
  color: #1f2933; font-size: .72rem; font-weight: 700; letter-spacing: .05em; text-transform: uppercase; vertical-align: 2px; }
main { max-width: 76rem; margin: 0 auto; padding: 1.5rem 2rem 1rem; }
h1 { font-size: 1.6rem; margin: .25rem 0 1rem; }
h1 .sub { display: inline; margin-left: .5rem; font-size: 1rem; }
h2 { font-size: 1.2rem; margin: 0 0 .75rem; }
h3 { font-size: 1rem; margin: 0 0 .4rem; }
section { background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: 1.1rem 1.4rem;
  margin: 0 0 1.25rem; overflow-x: auto; }
.summary { display: grid; grid-template-columns: repeat(auto-fit, minmax(9.5rem, 1fr)); gap: .75rem; margin: 0 0 1.25rem; }
.summary div { background: var(--card); border: 1px solid var(--border); border-radius: 8px; padding: .65rem 1rem; }
.summary dt { color: var(--muted); font-size: .78rem; letter-spacing: .04em; text-transform: uppercase; }
.summary dd { margin: 0; font-size: 1.25rem; font-weight: 600; overflow-wrap: anywhere; }
.summary .wide { grid-column: span 2; }
table { width: 100%; min-width: 36rem; border-collapse: collapse; }
caption { caption-side: top; text-align: left; color: var(--muted); font-size: .85rem; padding: 0 0 .45rem; }
th, td { text-align: left; vertical-align: top; padding: .5rem .7rem; border-bottom: 1px solid var(--border); }
thead th { background: #f7f9fb; color: var(--muted); font-size: .76rem; letter-spacing: .04em; text-transform: uppercase; }
tbody th { font-weight: 600; }
tbody tr:last-child > * { border-bottom: 0; }
.sub { display: block; color: var(--muted); font-size: .84rem; font-weight: 400; }
.badge { display: inline-block; padding: .08rem .55rem; border-radius: 999px; font-size: .8rem; font-weight: 600; white-space: nowrap; }
.ok { background: #d1fae5; color: #065f46; }
.off { background: #e5e7eb; color: #374151; }
.busy { background: #fef3c7; color: #78350f; }
.notice { background: #fffbeb; border: 1px solid #d97706; border-radius: 8px; padding: .7rem 1rem; margin: 0 0 1.25rem; }
.brand { display: inline-flex; align-items: center; gap: .5rem; font-weight: 600; }
.brand img { width: 32px; height: 32px; object-fit: contain; border: 1px solid var(--border); border-radius: 6px; background: #ffffff; }
.empty { color: var(--muted); margin: 0; }
.empty.after { margin-top: 1rem; }
.mail + .mail { margin-top: 1.4rem; }
.mail table { table-layout: fixed; }
.mail .c-addr { width: 34%; }
.mail .c-kind { width: 14%; }
.mail .c-status { width: 14%; }
.nw { white-space: nowrap; }
td, th { overflow-wrap: break-word; }
.vh { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
ul.plain { list-style: none; margin: 0; padding: 0; }
code { font-family: "DejaVu Sans Mono", ui-monospace, monospace; font-size: .86em; }
@media (max-width: 32rem) { .summary .wide { grid-column: auto; } main, .topbar, footer { padding-left: 1rem; padding-right: 1rem; } }
footer { max-width: 76rem; margin: 0 auto; padding: 0 2rem 2rem; color: var(--muted); font-size: .85rem; }
`;

/** `sha256-…` source expression of the stylesheet, for the Content-Security-Policy. */
export const STYLESHEET_HASH = `sha256-${createHash('sha256').update(STYLESHEET, 'utf8').digest('base64')}`;
