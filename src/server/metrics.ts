// Prometheus metrics of one server (its own registry, so several servers in a process do not mix):
// requests and their duration by route, method and status, the turns and packets it handled, and
// how long its event loop was held up (the longest delay and the 99th percentile since the last
// scrape: work on the request thread that stalls every request shows there first).

import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** How finely the event loop's delay is sampled, in milliseconds. */
const LOOP_RESOLUTION_MS = 10;

/**
 * The metrics of a server; `text()` is the Prometheus exposition.
 *
 * @example
 * const metrics = new ServerMetrics();
 * metrics.turnsCommitted.inc({ outcome: 'written' });
 * await metrics.text(); // '# HELP engram_http_requests_total …'
 */
export class ServerMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'route' | 'method' | 'status'>;
  readonly duration: Histogram<'route' | 'method' | 'status'>;
  /** Turns committed over HTTP: `written`, or `replayed` (a repeated turn_id). */
  readonly turnsCommitted: Counter<'outcome'>;
  /** Packets composed over HTTP, by purpose. */
  readonly packetsComposed: Counter<'purpose'>;
  private readonly loop: IntervalHistogram;

  constructor() {
    const registers = [this.registry];
    this.requests = new Counter({
      name: 'engram_http_requests_total',
      help: 'HTTP requests answered, by route, method and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: 'engram_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route, method and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.turnsCommitted = new Counter({
      name: 'engram_turns_committed_total',
      help: 'Turns committed over HTTP (written, or replayed for a repeated turn_id).',
      labelNames: ['outcome'],
      registers,
    });
    this.packetsComposed = new Counter({
      name: 'engram_packets_composed_total',
      help: 'MemoryPackets composed over HTTP, by purpose.',
      labelNames: ['purpose'],
      registers,
    });
    this.loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    this.loop.enable();
    const loop = this.loop;
    // Both read one window: the max's collect reads the p99 too, then starts the next window.
    let p99 = 0;
    new Gauge({
      name: 'engram_event_loop_delay_max_seconds',
      help: `Longest delay of the server's event loop since the last scrape (sampled every ${LOOP_RESOLUTION_MS} ms).`,
      registers,
      collect() {
        p99 = loop.count === 0 ? 0 : loop.percentile(99) / 1e9;
        this.set(loop.count === 0 ? 0 : loop.max / 1e9);
        loop.reset();
      },
    });
    new Gauge({
      name: 'engram_event_loop_delay_p99_seconds',
      help: `99th percentile of the server's event-loop delay since the last scrape (sampled every ${LOOP_RESOLUTION_MS} ms).`,
      registers,
      collect() {
        this.set(p99);
      },
    });
  }

  /** Stops sampling the event loop (the server closed). */
  close(): void {
    this.loop.disable();
  }

  /** The content type of the exposition. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** The Prometheus text exposition of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}

/**
 * Counts and times every response (route labels are route patterns, so ids never become labels).
 *
 * @example
 * installRequestMetrics(app, metrics);
 */
export function installRequestMetrics(app: FastifyInstance, metrics: ServerMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      route: request.routeOptions.url ?? 'unmatched',
      method: request.method,
      status: String(reply.statusCode),
    };
    metrics.requests.inc(labels);
    metrics.duration.observe(labels, reply.elapsedTime / 1000);
  });
}
