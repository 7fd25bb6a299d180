/**
 * @module viewer/http-guard
 * What every local page server of chatbench (`chatbench view`, `--dashboard`) does the same way:
 * the security headers of each answer, and which Host headers it answers. A request is answered
 * only when addressed to the server by the name or address it listens on, so a web page elsewhere
 * cannot reach it through DNS rebinding (a rebinding needs a DNS name; an IP literal cannot
 * rebind).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';

export const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...SECURITY_HEADERS, ...extra });
  res.end(body);
}

export const json = (res: ServerResponse, status: number, value: unknown) =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));
export const problem = (res: ServerResponse, status: number, message: string) => json(res, status, { error: message });

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
const WILDCARD = new Set(['0.0.0.0', '::']);

/** How a URL names `host` (an IPv6 address in brackets). */
export const urlHost = (host: string): string => (isIP(host) === 6 ? `[${host}]` : host);

/**
 * Which Host headers a server bound to `host`:`port` answers: on loopback its loopback names; on
 * another address that address; on a wildcard (0.0.0.0, ::) any IP literal with its port.
 */
export function hostGuard(
  host: string,
  port: number,
): { readonly hosts: readonly string[]; allows(header: string | undefined): boolean } {
  const hosts = LOOPBACK.has(host)
    ? [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]
    : [`${urlHost(host)}:${port}`];
  const wildcard = WILDCARD.has(host);
  return {
    hosts,
    allows(header) {
      if (header === undefined) return false;
      if (hosts.includes(header)) return true;
      if (!wildcard) return false;
      const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(header);
      return m !== null && Number(m[3]) === port && isIP(m[1] ?? m[2] ?? '') !== 0;
    },
  };
}

/** A same-origin request from the page: its Origin is one of the hosts the guard answers. */
export const sameOrigin = (req: IncomingMessage, guard: { allows(header: string | undefined): boolean }): boolean => {
  const origin = req.headers.origin;
  return origin !== undefined && origin.startsWith('http://') && guard.allows(origin.slice('http://'.length));
};
