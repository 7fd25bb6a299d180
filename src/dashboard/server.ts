/**
 * @module dashboard/server
 * `--dashboard`'s web server: the page (viewer/page, the dashboard's app from the viewer's bundle)
 * and `/api/snapshot`, the JSON the run made on its last tick (dashboard/snapshot). It answers
 * only GET and HEAD, only requests addressed to it by the name it listens on (viewer/http-guard,
 * as `chatbench view`), and fetches nothing itself.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../errors.js';
import type { ViewerBundle } from '../viewer/assets.js';
import { hostGuard, problem, send, urlHost } from '../viewer/http-guard.js';
import { renderServedPage, SERVED_CSP_HEADER } from '../viewer/page.js';

export interface DashboardServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

export interface DashboardServeOptions {
  readonly bundle: ViewerBundle;
  /** The snapshot's JSON text as it stands (made on the run's tick, not here). */
  readonly snapshot: () => string;
  readonly host: string;
  /** 0: any free port. */
  readonly port: number;
}

/** Listens on host:port; a port taken or a host not on this machine is a UsageError naming the flag. */
export async function startDashboardServer(options: DashboardServeOptions): Promise<DashboardServer> {
  const page = renderServedPage({ title: 'chatbench dashboard', app: 'dashboard' });
  let guard = hostGuard(options.host, options.port);
  const server = createServer((req, res) => {
    if (!guard.allows(req.headers.host)) return problem(res, 421, 'wrong host');
    if (req.method !== 'GET' && req.method !== 'HEAD') return problem(res, 405, 'method not allowed');
    switch (new URL(req.url ?? '/', 'http://x').pathname) {
      case '/':
      case '/index.html':
        return send(res, 200, 'text/html; charset=utf-8', page, { 'content-security-policy': SERVED_CSP_HEADER });
      case '/assets/dashboard.js':
        return send(res, 200, 'text/javascript; charset=utf-8', options.bundle.js);
      case '/assets/dashboard.css':
        return send(res, 200, 'text/css; charset=utf-8', options.bundle.css);
      case '/api/snapshot':
        return send(res, 200, 'application/json; charset=utf-8', options.snapshot());
      default:
        return problem(res, 404, 'not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new UsageError(
          `--dashboard ${urlHost(options.host)}:${options.port}: cannot listen (${error.code ?? error.message})`,
        ),
      ),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  // A page's polling keeps a connection open: it must not hold the process (the CLI decides how long to stay).
  server.unref();
  const { port } = server.address() as AddressInfo;
  guard = hostGuard(options.host, port);
  const shown = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    url: `http://${urlHost(shown)}:${port}/`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
