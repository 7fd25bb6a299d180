/**
 * @module client/preconnect
 * An undici Agent whose connections can be opened before the first request. Without it the first
 * wave of a run pays for connecting (TCP, and TLS to a real service) inside its TTFP, a cost no later
 * request pays. `preconnect(n)` opens n sockets to the target with undici's own connector (same TLS
 * options, same ALPN) and parks them; the pool takes a parked socket whenever it would otherwise
 * connect. Nothing is sent on them: the service sees connections, not requests. A socket the server
 * closed while parked is dropped and a fresh one is opened as usual.
 */
import type { Socket } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { tlsConnectOptions } from './trust.js';

export interface PreconnectingAgent {
  readonly agent: Agent;
  /**
   * Opens up to `count` connections to `origin` and parks them for the pool; resolves with how many
   * opened. Never rejects: a target that cannot be reached is the run's to report.
   */
  preconnect(origin: string, count: number): Promise<number>;
  /** Closes the parked sockets no request took (call it with the agent's close). */
  release(): void;
}

export interface PreconnectingAgentOptions {
  readonly connections: number;
  readonly keepAliveTimeout?: number;
  readonly pipelining?: number;
}

/** Connect timeout of undici's default connector. */
const CONNECT_TIMEOUT_MS = 10_000;

export function createPreconnectingAgent(options: PreconnectingAgentOptions): PreconnectingAgent {
  const connector = buildConnector({ timeout: CONNECT_TIMEOUT_MS, ...tlsConnectOptions() });
  const parked = new Map<string, Socket[]>();
  const take = (origin: string): Socket | undefined => {
    const sockets = parked.get(origin);
    for (let socket = sockets?.pop(); socket !== undefined; socket = sockets?.pop()) {
      if (!socket.destroyed && socket.writable && socket.readyState === 'open') {
        socket.removeListener('error', ignore);
        return socket;
      }
      socket.destroy();
    }
    return undefined;
  };
  const agent = new Agent({
    connections: options.connections,
    keepAliveTimeout: options.keepAliveTimeout ?? 30_000,
    ...(options.pipelining === undefined ? {} : { pipelining: options.pipelining }),
    connect: (opts, callback) => {
      const socket = take(`${opts.protocol}//${opts.host}`);
      // Asynchronously, as the connector itself answers: the pool does not expect it within the call.
      if (socket !== undefined) queueMicrotask(() => callback(null, socket));
      else connector(opts, callback);
    },
  });
  return {
    agent,
    async preconnect(origin, count) {
      const url = new URL(origin);
      const key = `${url.protocol}//${url.host}`;
      const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
      const opened = await Promise.all(
        Array.from(
          { length: Math.max(0, Math.floor(count)) },
          () =>
            new Promise<Socket | null>((resolve) => {
              connector({ hostname, host: url.host, protocol: url.protocol, port: url.port }, (...result) => {
                resolve(result[0] === null ? result[1] : null);
              });
            }),
        ),
      );
      const sockets = opened.filter((s): s is Socket => s !== null);
      // A parked socket the server resets must not take the process down with an unhandled error.
      for (const socket of sockets) socket.on('error', ignore);
      parked.set(key, [...(parked.get(key) ?? []), ...sockets]);
      return sockets.length;
    },
    release() {
      for (const sockets of parked.values()) for (const socket of sockets.splice(0)) socket.destroy();
    },
  };
}

const ignore = () => {};
