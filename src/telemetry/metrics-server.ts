/**
 * @module telemetry/metrics-server
 * `--metrics-listen [HOST:]PORT`: serves `GET /metrics` in the Prometheus text format while the run
 * lasts (127.0.0.1 unless a host is given). Each scrape reads the series then; nothing is encoded
 * between scrapes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors.js';
import { exposition } from './prometheus.js';
import type { LiveSeries } from './series.js';

/** Longest wait for the last scrape after the run (see `close`). */
export const FINAL_SCRAPE_MAX_MS = 30_000;

export interface MetricsServer {
  /** `http://host:port/metrics` as bound (port 0 becomes the port the system gave). */
  readonly url: string;
  /**
   * Stops serving. When something has been scraping, first waits for its next scrape (at most
   * twice its interval seen so far plus 1 s, and FINAL_SCRAPE_MAX_MS), so that the scraper holds
   * the run's final state and not the one of a few seconds before the end. `waitForScrape: false`
   * (an interrupted run) stops at once.
   */
  close(options?: { waitForScrape: boolean }): Promise<void>;
}

interface ScrapeLog {
  count: number;
  /** performance.now() of the last two scrapes. */
  last: number;
  interval: number;
  onScrape: (() => void) | null;
}

export function createMetricsServer(series: LiveSeries, log?: ScrapeLog): Server {
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found: the series are at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    exposition(series).then(
      ({ contentType, body }) => {
        res
          .writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' })
          .end(req.method === 'HEAD' ? undefined : body);
        if (log) {
          const t = performance.now();
          if (log.count > 0) log.interval = t - log.last;
          log.last = t;
          log.count += 1;
          log.onScrape?.();
        }
      },
      (error: unknown) =>
        res
          .writeHead(500, { 'content-type': 'text/plain' })
          .end(`${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
}

/** Listens on host:port; a port taken or a host not on this machine is a UsageError naming the flag. */
export async function listenMetrics(series: LiveSeries, host: string, port: number): Promise<MetricsServer> {
  const log: ScrapeLog = { count: 0, last: 0, interval: 0, onScrape: null };
  const server = createMetricsServer(series, log);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new UsageError(`--metrics-listen ${host}:${port}: cannot listen (${error.code ?? error.message})`)),
    );
    server.listen(port, host, () => resolve());
  });
  // Scrapers keep their connection open: it must not hold the process once the run is over.
  server.unref();
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    close: async ({ waitForScrape } = { waitForScrape: true }) => {
      if (waitForScrape && log.count > 0) {
        const waitMs = Math.min(FINAL_SCRAPE_MAX_MS, 2 * log.interval + 1000);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, waitMs);
          log.onScrape = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
