/**
 * A minimal method + path router: patterns such as `/package/:pkg/email/:domain`
 * match whole, percent-decoded path segments. Handlers are synchronous functions that
 * return a Reply; the server writes it (or, for an injected fault, does not).
 * Keeping handlers synchronous is what serialises writes: a handler reads and
 * changes the state in one turn of the event loop.
 */

export interface Reply {
  status: number;
  /** JSON-serialisable body. */
  body: unknown;
  headers?: Record<string, string>;
}

/** 200 with a bare JSON body: the shape of every GET response (api-notes). */
export function bare(body: unknown, headers?: Record<string, string>): Reply {
  return { status: 200, body, headers };
}

/** 200 with `{"result": X}`: the shape of every POST response (api-notes). */
export function wrapped(result: unknown): Reply {
  return { status: 200, body: { result } };
}

export type Handler<C> = (ctx: C & { params: Record<string, string> }) => Reply;

interface Route<C> {
  method: string;
  segments: string[];
  handler: Handler<C>;
}

export interface Match<C> {
  handler: Handler<C>;
  params: Record<string, string>;
}

export class Router<C> {
  private readonly routes: Route<C>[] = [];

  add(method: string, pattern: string, handler: Handler<C>): this {
    this.routes.push({ method: method.toUpperCase(), segments: pattern.split('/').slice(1), handler });
    return this;
  }

  /** The route for `method` and `pathname`, or undefined (-> "No route handler"). */
  match(method: string, pathname: string): Match<C> | undefined {
    const segments = decodeSegments(pathname);
    if (!segments) return undefined;
    for (const route of this.routes) {
      if (route.method !== method || route.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      const hit = route.segments.every((pattern, i) => {
        if (pattern.startsWith(':')) {
          if (segments[i] === '') return false;
          params[pattern.slice(1)] = segments[i];
          return true;
        }
        return pattern === segments[i];
      });
      if (hit) return { handler: route.handler, params };
    }
    return undefined;
  }
}

/** Path segments, percent-decoded; undefined for a malformed escape (treated as no route). */
function decodeSegments(pathname: string): string[] | undefined {
  try {
    return pathname.split('/').slice(1).map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}
