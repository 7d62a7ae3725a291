// The `route` label of a request: the Express route pattern it was answered by, from the root
// (`/api/dcim/sites/:id/`), never the URL, so the label takes a bounded set of values.
//
// Express keeps the Route object a request matched in `req.route`, but only the pattern relative to
// its router, and `req.baseUrl` is the mount as the client spelled it (and is reset when an error
// leaves the router). So the app's router tree is walked once, at the first request: each Route gets
// its full patterns (mount + route; a router mounted at several paths gives several). A request with
// a Route costs one map lookup; only a Route with several patterns tests the path against them.
// A request no Route took (a 401 from a router's own middleware, a static file, a 404) is matched
// against every pattern (as the router would, first wins), then against the static mounts
// (`/ui/*`); else it is `unmatched`.
import type { Express } from 'express';

export const UNMATCHED = 'unmatched';

interface Pattern {
  readonly label: string;
  readonly re: RegExp;
}

/**
 * The parts of router 2.3's layers read here (`Router#stack`, `layer.rawPath`, `layer.route`):
 * test/server/metrics.test.ts fails if an upgrade moves them.
 */
interface LayerLike {
  readonly rawPath?: unknown;
  readonly route?: { readonly path: unknown };
  readonly handle?: { readonly stack?: unknown };
}

const join = (mount: string, path: string): string => `${mount}/${path}`.replace(/\/{2,}/g, '/');

/**
 * An Express 5 pattern as a regex over the whole path: `:name` one segment, `*name` the rest, `{…}`
 * optional; case-insensitive and a trailing slash optional, as the router matches by default.
 */
export function patternRegex(pattern: string): RegExp {
  let src = '';
  for (const m of pattern.matchAll(/:(\w+)|\*(\w+)|([{}])|([^:*{}]+)/g)) {
    if (m[1]) src += '[^/]+';
    else if (m[2]) src += '.+';
    else if (m[3]) src += m[3] === '{' ? '(?:' : ')?';
    else src += m[4].replace(/[.+?^$()[\]|\\]/g, '\\$&');
  }
  return new RegExp(`^${src.replace(/\/$/, '')}/?$`, 'i');
}

const paths = (raw: unknown): string[] =>
  (Array.isArray(raw) ? raw.flat(Infinity) : [raw]).filter((p): p is string => typeof p === 'string');

export class RouteLabels {
  private byRoute: WeakMap<object, Pattern[]> | null = null;
  /** Every route pattern in router order, then the static mounts: for requests no Route took. */
  private all: Pattern[] = [];

  /** `app`: the app whose router tree is walked at the first label asked. */
  constructor(private readonly app: Express) {}

  /** The label of a finished request: the Route Express matched (if any), the URL as the client sent it. */
  label(route: unknown, url: string): string {
    if (!this.byRoute) this.index(this.app);
    const path = pathOf(url);
    if (typeof route === 'object' && route !== null) {
      const found = this.byRoute!.get(route);
      if (found) {
        if (found.length === 1) return found[0].label;
        return (found.find((p) => p.re.test(path)) ?? found[0]).label;
      }
    }
    return this.ofPath(path);
  }

  /** Paths answered with no Route (the cached-list door's, 401s, 404s) and their labels, kept while few. */
  private readonly byPath = new Map<string, string>();

  private ofPath(path: string): string {
    let label = this.byPath.get(path);
    if (label !== undefined) return label;
    label = this.all.find((p) => p.re.test(path))?.label ?? UNMATCHED;
    if (label !== UNMATCHED && this.byPath.size < 1000) this.byPath.set(path, label);
    return label;
  }

  private index(app: Express): void {
    const byRoute = new WeakMap<object, Pattern[]>();
    const routes: Pattern[] = [],
      mounts: string[] = [];
    const walk = (stack: unknown, mount: string) => {
      if (!Array.isArray(stack)) return;
      for (const layer of stack as LayerLike[]) {
        if (layer.route) {
          // one pattern per spelling that differs by more than a trailing slash (the router ignores it)
          const own = dedupe(paths(layer.route.path).map((p) => join(mount, p)));
          byRoute.set(layer.route, dedupe([...(byRoute.get(layer.route) ?? []), ...own].map((p) => p.label)));
          routes.push(...own);
          continue;
        }
        for (const at of paths(layer.rawPath)) {
          if (Array.isArray(layer.handle?.stack)) walk(layer.handle.stack, join(mount, at));
          // middleware at a path (express.static under /ui): all below it
          else if (at !== '/') mounts.push(`${join(mount, at).replace(/\/$/, '')}/*`);
        }
      }
    };
    walk(app.router?.stack, '');
    this.all = [
      ...dedupe(routes.map((p) => p.label)),
      ...[...new Set(mounts)].map((label) => ({ label, re: mountRegex(label) })),
    ];
    this.byRoute = byRoute;
  }
}

/** Patterns for these labels, the first of those equal but for a trailing slash. */
function dedupe(labels: readonly string[]): Pattern[] {
  const seen = new Set<string>();
  const out: Pattern[] = [];
  for (const label of labels) {
    const k = label.replace(/\/$/, '').toLowerCase();
    if (seen.has(k)) continue;
    seen.add(k);
    out.push({ label, re: patternRegex(label) });
  }
  return out;
}

/** `/ui/*`: /ui and everything below it. */
const mountRegex = (label: string): RegExp =>
  new RegExp(`^${label.slice(0, -2).replace(/[.+?^$()[\]|\\*{}]/g, '\\$&')}(?:/.*)?$`, 'i');

/** The path of the URL as the client sent it (the router rewrites req.url under mounts: originalUrl). */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}
