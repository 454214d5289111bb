import type * as http from 'node:http';
import { isLoopback, isLoopbackHost } from '../control';
import type { EmulatorStateDump } from '../snapshot';
import { html } from './html';
import { accountPath, renderAccount, renderAccountList, renderForbidden, renderNotFound } from './render';
import { STYLESHEET_HASH } from './style';

/**
 * The emulator's control-panel page: a read-only HTML view of the state dump for
 * people (the demo, local development), served to loopback clients only, like the
 * control API.
 *
 *   GET /                  the accounts; redirects to the only account when there is one
 *   GET /accounts/{id}     one account (404 page for an unknown id)
 *
 * Only GET (and HEAD) of exactly these paths is a page: every other method or path
 * goes on to the API, so its 401s and "No route handler" 404s are unchanged. Page
 * requests are not API requests: no key, no fault injection, not in the request log.
 */

export type PageRoute = { kind: 'index' } | { kind: 'account'; id: string };

/** The page a request is for, or undefined when it is not a page request. */
export function matchPage(method: string, pathname: string): PageRoute | undefined {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  if (pathname === '/') return { kind: 'index' };
  const m = /^\/accounts\/([^/]+)$/.exec(pathname);
  if (!m) return undefined;
  let id: string;
  try {
    id = decodeURIComponent(m[1]);
  } catch {
    id = m[1];
  }
  return { kind: 'account', id };
}

export interface PageReply {
  status: number;
  headers: Record<string, string>;
  /** The whole HTML document. */
  body: string;
}

/** Security headers of every page: no script at all, only the inline stylesheet and http(s) images. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy':
    `default-src 'none'; style-src '${STYLESHEET_HASH}'; img-src http: https:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The reply to a page request from `remoteAddress` (403 unless loopback). `snapshot`
 * is only called for a loopback client.
 */
export function pageReply(
  route: PageRoute,
  remoteAddress: string | undefined,
  snapshot: () => EmulatorStateDump,
  host?: string,
): PageReply {
  if (!isLoopback(remoteAddress) || !isLoopbackHost(host)) return page(403, renderForbidden());
  const dump = snapshot();
  if (route.kind === 'index') {
    if (dump.accounts.length === 1) {
      const location = accountPath(dump.accounts[0].id);
      const body = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Redirecting</title></head>
<body><p><a href="${location}">Account ${dump.accounts[0].id}</a></p></body></html>
`.text;
      return { status: 302, headers: { ...PAGE_HEADERS, Location: location }, body };
    }
    return page(200, renderAccountList(dump));
  }
  const account = /^[1-9][0-9]{0,15}$/.test(route.id) ? dump.accounts.find((a) => a.id === Number(route.id)) : undefined;
  if (!account) return page(404, renderNotFound(dump, `reseller account ${route.id.length > 64 ? `${route.id.slice(0, 64)}…` : route.id}`));
  return page(200, renderAccount(dump, account));
}

/** Answers a page request on `res` (the request body, if any, is drained and ignored). */
export function servePage(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  route: PageRoute,
  snapshot: () => EmulatorStateDump,
): void {
  req.resume();
  const reply = pageReply(route, req.socket.remoteAddress, snapshot, req.headers.host);
  if (res.headersSent || res.destroyed) return;
  res.writeHead(reply.status, { ...reply.headers, 'Content-Length': String(Buffer.byteLength(reply.body)) });
  res.end(req.method === 'HEAD' ? undefined : reply.body);
}

function page(status: number, body: string): PageReply {
  return { status, headers: { ...PAGE_HEADERS }, body };
}

export { renderAccount, renderAccountList, renderForbidden, renderNotFound, REFRESH_SECONDS } from './render';
export { escapeHtml } from './html';
