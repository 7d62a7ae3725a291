// Request counts and latency per route: `netinv_http_requests_total{method,route,status}` and
// `netinv_http_request_duration_seconds{method,route}`, recorded when the response closes: its
// answer sent, or its connection gone (an event stream the client left is counted with its status;
// a request whose connection went before any answer as status 499, nginx's "client closed
// request"). Per request: a clock read and a
// listener; at the end three map lookups (route, method, status) to reach series made at their
// first use; no label text is built. (The start is kept in the listener's closure: a property
// added to the response object cost twice as much, measured.)
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Express } from 'express';
import type { CounterChild, HistogramChild, Registry } from './registry.js';
import { RouteLabels } from './route-labels.js';

/**
 * A request as recording reads it: Node's own, plus what Express adds once it has seen it (the Route
 * matched, the URL before mounts rewrote it). The door's requests have neither; Express's have both.
 */
export type ObservedRequest = IncomingMessage & { readonly route?: unknown; readonly originalUrl?: string };

/** The status counted for a request whose connection closed before an answer was sent. */
export const CLOSED_BEFORE_ANSWER = 499;

interface MethodSeries {
  readonly duration: HistogramChild;
  readonly byStatus: Map<number, CounterChild>;
}

export class HttpMetrics {
  private readonly labels: RouteLabels;
  /** route label -> method -> series */
  private readonly series = new Map<string, Map<string, MethodSeries>>();
  private readonly requests;
  private readonly duration;

  /** `app`: the app whose routes name the `route` label. */
  constructor(registry: Registry, app: Express) {
    this.labels = new RouteLabels(app);
    this.requests = registry.counter(
      'netinv_http_requests_total',
      'HTTP requests answered, by method, route pattern (`unmatched`: no route) and status code (499: closed ' +
        'before an answer)',
      ['method', 'route', 'status'],
    );
    this.duration = registry.histogram(
      'netinv_http_request_duration_seconds',
      'Time from the request reaching the app to its response closing, by method and route pattern',
      ['method', 'route'],
    );
  }

  /** Stamps the start and listens for the end: first for every request, whoever answers it. */
  observe(req: ObservedRequest, res: ServerResponse): void {
    const t0 = performance.now();
    res.on('close', () => {
      this.record(req, res.headersSent ? res.statusCode : CLOSED_BEFORE_ANSWER, (performance.now() - t0) / 1000);
    });
  }

  private record(req: ObservedRequest, status: number, seconds: number): void {
    const method = req.method ?? 'GET';
    const route = this.labels.label(req.route, req.originalUrl ?? req.url ?? '/');
    let byMethod = this.series.get(route);
    if (!byMethod) {
      byMethod = new Map();
      this.series.set(route, byMethod);
    }
    let m = byMethod.get(method);
    if (!m) {
      m = { duration: this.duration.child(method, route), byStatus: new Map() };
      byMethod.set(method, m);
    }
    let c = m.byStatus.get(status);
    if (!c) {
      c = this.requests.child(method, route, String(status));
      m.byStatus.set(status, c);
    }
    c.inc();
    m.duration.observe(seconds);
  }
}
