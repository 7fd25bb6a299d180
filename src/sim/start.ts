/**
 * @module sim/start
 * Starts the simulated service in-process: loads the corpus, builds the server, listens (by
 * default on 127.0.0.1 and an ephemeral port) and reports its base URL, which carries the `/api`
 * prefix the deployed service has behind its proxy.
 */
import type { AddressInfo } from 'node:net';
import type { ThreadpoolDepth } from '../api/index.js';
import type { TokenEntry } from './auth.js';
import type { SimConfigInput } from './config.js';
import type { Corpus } from './corpus/index.js';
import { loadCorpus } from './corpus/index.js';
import type { SimStats } from './server.js';
import { createSimServer } from './server.js';

export interface SimulatorOptions {
  readonly config?: SimConfigInput | undefined;
  /** Default 1. */
  readonly seed?: number | undefined;
  /** Default 127.0.0.1: the simulator is for this machine unless told otherwise. */
  readonly host?: string | undefined;
  /** Default 0 (an ephemeral port). */
  readonly port?: number | undefined;
  /** The unrestricted demo token's value (default `onyx_pat_chatbench_demo`). */
  readonly token?: string | undefined;
  /** A corpus already loaded; default: the one shipped in datasets/. */
  readonly corpus?: Corpus | undefined;
  readonly now?: (() => number) | undefined;
}

export interface RunningSimulator {
  /** e.g. `http://127.0.0.1:41234/api`: what a client uses as its base URL. */
  readonly baseUrl: string;
  /** What `GET /version` says, e.g. `v4.6.0`. */
  readonly backendVersion: string;
  readonly tokens: readonly TokenEntry[];
  stats(): SimStats;
  /** The request thread pool's depth now, as `/health/ready` reports it. */
  threadpool(): ThreadpoolDepth;
  /** Restarts the send-lag window of `stats().send_lag_window_ms`. */
  restartLagWindow(): void;
  /** Drops every connection and stops listening. Safe to call twice. */
  close(): Promise<void>;
}

/** URL host part: IPv6 literals need brackets. */
const hostPart = (host: string) => (host.includes(':') ? `[${host}]` : host);

/**
 * Starts a simulator and resolves once it listens. Rejects with SimConfigError for an invalid
 * config, or with the listen error (e.g. EADDRINUSE).
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const corpus = options.corpus ?? (await loadCorpus());
  const sim = createSimServer({
    config: options.config,
    seed: options.seed,
    token: options.token,
    corpus,
    now: options.now,
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    sim.server.once('error', reject);
    // A load test opens thousands of connections at once: a deeper accept queue than Node's
    // default 511 keeps them from timing out while the server catches up (the OS caps it).
    sim.server.listen({ port: options.port ?? 0, host, backlog: 4096 }, () => {
      sim.server.off('error', reject);
      resolve();
    });
  });
  const { port } = sim.server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://${hostPart(host)}:${port}${sim.config.base_path}`,
    backendVersion: sim.release.backendVersion,
    tokens: sim.tokens,
    stats: () => sim.stats(),
    threadpool: () => sim.threadpool(),
    restartLagWindow: () => sim.restartLagWindow(),
    close: () => (closing ??= sim.close()),
  };
}
