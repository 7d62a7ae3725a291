// Request counts and latency per route: `netinv_http_requests_total{method,route,status}` and
// `netinv_http_request_duration_seconds{method,route}`, recorded when the response closes: its
// answer sent, or its connection gone (an event stream the client left is counted with its status;
// a request whose connection went before any answer as status 499, nginx's "client closed
// request"). Per request: a clock read and a
// listener; at the end three map lookups (route, method, status) to reach series made at their
// first use; no label text is built. (The start is kept in the listener's closure: a property
// added to the response object cost twice as much, measured.)
import { performance } from 'node:perf_hooks';
import type { Express, Request, RequestHandler } from 'express';
import type { CounterChild, HistogramChild, Registry } from './registry.js';
import { RouteLabels } from './route-labels.js';

/** The status counted for a request whose connection closed before an answer was sent. */
export const CLOSED_BEFORE_ANSWER = 499;

interface MethodSeries { readonly duration: HistogramChild; readonly byStatus: Map<number, CounterChild> }

export class HttpMetrics {
  private readonly labels = new RouteLabels();
  /** route label -> method -> series */
  private readonly series = new Map<string, Map<string, MethodSeries>>();
  private readonly requests;
  private readonly duration;

  constructor(registry: Registry) {
    this.requests = registry.counter('netinv_http_requests_total',
      'HTTP requests answered, by method, route pattern (`unmatched`: no route) and status code (499: closed before an answer)',
      ['method', 'route', 'status']);
    this.duration = registry.histogram('netinv_http_request_duration_seconds',
      'Time from the request reaching the app to its response closing, by method and route pattern', ['method', 'route']);
  }

  /** First in the app: stamps the start and listens for the end. */
  readonly middleware: RequestHandler = (req, res, next) => {
    const t0 = performance.now();
    res.on('close', () => {
      this.record(req, res.headersSent ? res.statusCode : CLOSED_BEFORE_ANSWER, (performance.now() - t0) / 1000);
    });
    next();
  };

  private record(req: Request, status: number, seconds: number): void {
    const route = this.labels.label(req, req.app as Express);
    let byMethod = this.series.get(route);
    if (!byMethod) { byMethod = new Map(); this.series.set(route, byMethod); }
    let m = byMethod.get(req.method);
    if (!m) { m = { duration: this.duration.child(req.method, route), byStatus: new Map() }; byMethod.set(req.method, m); }
    let c = m.byStatus.get(status);
    if (!c) { c = this.requests.child(req.method, route, String(status)); m.byStatus.set(status, c); }
    c.inc();
    m.duration.observe(seconds);
  }
}
