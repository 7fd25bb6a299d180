/**
 * @module sim/server
 * The simulated service's HTTP server, built apart from listen() so tests and the CLI choose where
 * it listens. Per request: the gateway's requests-per-second limit, then routing under
 * `base_path` (unknown path 404, wrong method 405, as FastAPI answers before any auth), then the
 * route's own auth, limits and validation. Every response is counted by route and status.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  CHAT_COMPLETIONS_PATH,
  CREATE_CHAT_SESSION_PATH,
  FILE_UPLOAD_PATH,
  HEALTH_PATH,
  OPEN_URLS_PATH,
  READINESS_PATH,
  SEND_MESSAGE_PATH,
  VERSION_PATH,
} from '../api/index.js';
import type { TokenEntry } from './auth.js';
import { bearerToken, createAuthenticator, defaultTokens } from './auth.js';
import { chatHandler } from './chat-route.js';
import { createChatSessionHandler, createFileStore, fileUploadHandler } from './chat-setup.js';
import { createRng } from './rng.js';
import type { ChatStats } from './chat/index.js';
import { createChatEngine } from './chat/index.js';
import type { SimConfig, SimConfigInput } from './config.js';
import { parseSimConfig } from './config.js';
import type { Corpus } from './corpus/index.js';
import { replyLive, replyReadiness } from './health.js';
import { createSimJudge } from './judge/route.js';
import { openUrlsHandler } from './open-urls.js';
import { createProjectStore, defaultProjects, projectInstructionsHandlers } from './projects.js';
import { createRateLimiter } from './rate-limit.js';
import { releaseTraits, type ReleaseTraits } from './releases.js';
import { replyInternal, replyMethodNotAllowed, replyNotFound, replyRateLimited } from './replies.js';
import { sendJson } from './http.js';
import type { RouteHandler } from './route.js';
import type { RouteName, ServerStats } from './server-stats.js';
import { createServerStats } from './server-stats.js';
import type { ThreadpoolDepth } from '../api/index.js';
import { createThreadpool } from './threadpool.js';

export interface SimServerOptions {
  /** A config file's content (validated here) or nothing for the defaults. */
  readonly config?: SimConfigInput | undefined;
  /** Seeds every random choice of the engine; default 1. */
  readonly seed?: number | undefined;
  /** The unrestricted demo token's value when the config names no tokens. */
  readonly token?: string | undefined;
  /** The corpus answers and open-urls are served from (load it with loadCorpus). */
  readonly corpus: Corpus;
  /** Clock for rate limits (ms since the epoch); tests pass a fake one. */
  readonly now?: (() => number) | undefined;
}

/** The engine's statistics and the server's, in one object. */
export type SimStats = ChatStats & ServerStats;

export interface SimServer {
  /** Not listening yet. */
  readonly server: Server;
  readonly config: SimConfig;
  /** The Onyx release it speaks. */
  readonly release: ReleaseTraits;
  /** Every token the server accepts, with its user and scopes (none = unrestricted). */
  readonly tokens: readonly TokenEntry[];
  stats(): SimStats;
  /** The request thread pool as `/health/ready` would report it now (without sampling readiness). */
  threadpool(): ThreadpoolDepth;
  /** Restarts the send-lag window of `stats().send_lag_window_ms`. */
  restartLagWindow(): void;
  /** Clears the engine's timers and drops every connection; resolves when the server has closed. */
  close(): Promise<void>;
}

type Method = 'GET' | 'POST';
interface Route {
  readonly name: RouteName;
  readonly pattern: RegExp;
  readonly methods: Partial<Record<Method, RouteHandler>>;
}

function routePattern(path: string): RegExp {
  const escaped = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)');
  return new RegExp(`^${escaped}$`);
}

/** Builds the server for a config; throws SimConfigError when the config is invalid. */
export function createSimServer(options: SimServerOptions): SimServer {
  const config = parseSimConfig(options.config ?? {});
  const now = options.now ?? Date.now;
  const release = releaseTraits(config.onyx_release);
  const tokens = config.tokens ?? defaultTokens(options.token);
  // Before v4.1 there are no token scopes: every token may do what its user may.
  const authenticator = createAuthenticator(release.scopes ? tokens : tokens.map(({ scopes: _scopes, ...t }) => t));
  const limiter = createRateLimiter(config.rate_limits, now);
  const counters = createServerStats();
  const engine = createChatEngine({ config: config.chat, seed: options.seed ?? 1, corpus: options.corpus, release });
  const pool = createThreadpool(config.threadpool, now);
  const files = createFileStore();
  let uploads = 0;
  const uploadRng = () => createRng(options.seed ?? 1, 'upload', uploads++);
  const projects = projectInstructionsHandlers(createProjectStore(config.projects ?? defaultProjects()));
  const routes: Route[] = [
    {
      name: 'send-chat-message',
      pattern: routePattern(SEND_MESSAGE_PATH),
      methods: {
        POST: chatHandler({
          engine,
          limiter,
          stats: counters,
          anonymousChat: config.anonymous_chat,
          now,
          release,
          pool,
          files,
        }),
      },
    },
    // Public (no token), as in the service: how a client learns the release it talks to.
    {
      name: 'version',
      pattern: routePattern(VERSION_PATH),
      methods: { GET: ({ res }) => sendJson(res, 200, { backend_version: release.backendVersion }) },
    },
    {
      name: 'create-chat-session',
      pattern: routePattern(CREATE_CHAT_SESSION_PATH),
      methods: { POST: createChatSessionHandler(engine, release, config.anonymous_chat) },
    },
    {
      name: 'file-upload',
      pattern: routePattern(FILE_UPLOAD_PATH),
      methods: { POST: fileUploadHandler(files, uploadRng, now) },
    },
    // Public probes: liveness in every release, readiness from v4.7 (a 404 before, as an unknown path).
    { name: 'health', pattern: routePattern(HEALTH_PATH), methods: { GET: ({ res }) => replyLive(res) } },
    ...(release.readinessProbe
      ? [
          {
            name: 'health-ready' as const,
            pattern: routePattern(READINESS_PATH),
            methods: { GET: ({ res }: { res: ServerResponse }) => replyReadiness(res, pool) },
          },
        ]
      : []),
    {
      name: 'open-urls',
      pattern: routePattern(OPEN_URLS_PATH),
      methods: { POST: openUrlsHandler(config.open_urls, options.corpus) },
    },
    {
      name: 'project-instructions',
      pattern: routePattern('/user/projects/{project_id}/instructions'),
      methods: projects,
    },
  ];
  const body = { maxBodyBytes: config.max_body_bytes, validationShape: config.validation_shape };
  const judge = createSimJudge({
    config: config.judge,
    seed: options.seed ?? 1,
    timeScale: config.chat.time_scale,
    maxBodyBytes: config.max_body_bytes,
    now,
  });

  const match = (pathname: string) => {
    const base = config.base_path;
    if (pathname !== base && !pathname.startsWith(`${base}/`)) return undefined;
    const rest = pathname.slice(base.length);
    for (const route of routes) {
      const found = route.pattern.exec(rest);
      if (found) return { route, params: decodeParams(found.groups ?? {}) };
    }
    return undefined;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const pathname = new URL(req.url ?? '/', 'http://sim.invalid').pathname;
    if (pathname === CHAT_COMPLETIONS_PATH) {
      res.once('close', () => counters.response('chat-completions', res.headersSent ? res.statusCode : undefined));
      if (req.method !== 'POST') return replyMethodNotAllowed(res, ['POST']);
      return judge.handle({ req, res, params: {}, principal: undefined, body });
    }
    const matched = match(pathname);
    // 'close' fires for every exchange, also one cut short; the status counts only if it was sent.
    res.once('close', () =>
      counters.response(matched?.route.name ?? 'unmatched', res.headersSent ? res.statusCode : undefined),
    );
    const refusal = limiter.admitRequest(bearerToken(req.headers.authorization) ?? '');
    if (refusal !== undefined) {
      counters.rateLimited(refusal.scope);
      replyRateLimited(res, refusal, now());
      return;
    }
    if (matched === undefined) return replyNotFound(res);
    const handler = matched.route.methods[req.method as Method];
    if (handler === undefined) return replyMethodNotAllowed(res, Object.keys(matched.route.methods));
    const principal = authenticator.authenticate(req.headers.authorization);
    await handler({ req, res, params: matched.params, principal, body });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // A bug in a route: answer 500 if nothing was sent yet, else cut the stream.
      if (res.headersSent) res.destroy();
      else replyInternal(res);
    });
  });

  return {
    server,
    config,
    release,
    tokens,
    stats: () => ({ ...engine.stats(), ...counters.snapshot() }),
    threadpool: () => pool.depth(),
    restartLagWindow: () => engine.restartLagWindow(),
    close: () =>
      new Promise<void>((resolve) => {
        engine.close();
        judge.close();
        server.closeAllConnections();
        if (!server.listening) return resolve();
        server.close(() => resolve());
      }),
  };
}

/** URL-decodes path parameters; a malformed escape is kept as it came. */
function decodeParams(groups: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(groups)) {
    try {
      out[key] = decodeURIComponent(value);
    } catch {
      out[key] = value;
    }
  }
  return out;
}
