// Prometheus metrics of one server (its own registry, so several servers in a process do not mix):
// requests and their duration by route, method and status, and the turns and packets it handled.

import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry } from 'prom-client';

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

  constructor() {
    const registers = [this.registry];
    this.requests = new Counter({ name: 'engram_http_requests_total', help: 'HTTP requests answered, by route, method and status.', labelNames: ['route', 'method', 'status'], registers });
    this.duration = new Histogram({
      name: 'engram_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route, method and status.',
      labelNames: ['route', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.turnsCommitted = new Counter({ name: 'engram_turns_committed_total', help: 'Turns committed over HTTP (written, or replayed for a repeated turn_id).', labelNames: ['outcome'], registers });
    this.packetsComposed = new Counter({ name: 'engram_packets_composed_total', help: 'MemoryPackets composed over HTTP, by purpose.', labelNames: ['purpose'], registers });
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
    const labels = { route: request.routeOptions.url ?? 'unmatched', method: request.method, status: String(reply.statusCode) };
    metrics.requests.inc(labels);
    metrics.duration.observe(labels, reply.elapsedTime / 1000);
  });
}
