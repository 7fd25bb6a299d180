/**
 * @module viewer/server
 * The viewer's local web server: the app's page and its bundled assets, and a small JSON API over
 * a ViewSource (the runs, read by the app layer). It binds 127.0.0.1 only, answers only requests
 * addressed to that host (a web page elsewhere cannot reach it through DNS rebinding), takes a
 * review or a decision on a candidate expected document only as a same-origin JSON POST, and
 * fetches nothing itself.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { ToolkitError } from '../errors.js';
import type { Review } from '../records/review.js';
import { VerdictSchema } from '../records/review.js';
import type { ViewerBundle } from './assets.js';
import { hostGuard, json, problem, sameOrigin, send } from './http-guard.js';
import { renderServedPage, SERVED_CSP_HEADER } from './page.js';
import { DecisionKindSchema, type Decision } from '../dataset/expectation-decisions.js';
import type { DecisionRequest, ReviewRequest, ViewData, ViewDetail, ViewExpectations } from './view-data.js';

/** What the server serves: the app layer reads the runs and appends the reviews. */
export interface ViewSource {
  data(): Promise<ViewData>;
  /** undefined: no such question in any run. */
  question(id: string): Promise<ViewDetail | undefined>;
  /** The ids of the questions whose id, text or any answer (whole, every try, every run) holds every word. */
  search(query: string): Promise<string[]>;
  /** Appends the review to the run's reviews.jsonl; a ToolkitError (exit code 2 kind) for a record the run does not have. */
  saveReview(request: ReviewRequest): Promise<Review>;
  /** The candidates of the question in each run that has them (chatbench draft-expectations), with their decisions. */
  expectations(id: string): Promise<ViewExpectations[]>;
  /** Appends the decision to the run's expectations.jsonl; a ToolkitError for a candidate the run does not have. */
  saveDecision(request: DecisionRequest): Promise<Decision>;
  /** The run's completed dataset CSV (its draft with the accepted candidates); a ToolkitError when it has no draft. */
  completedDataset(run: number): Promise<string>;
}

export const ReviewRequestSchema = z.strictObject({
  run: z.number().int().nonnegative(),
  key: z.string().min(1).max(2000),
  model_index: z.number().int().nonnegative().nullable(),
  verdict: VerdictSchema,
  note: z.string().max(4000),
});

export const DecisionRequestSchema = z.strictObject({
  run: z.number().int().nonnegative(),
  question_id: z.string().min(1).max(2000),
  document_id: z.string().min(1).max(2000),
  decision: DecisionKindSchema,
});

/** Biggest review body taken: a note is at most 4,000 characters. */
const MAX_BODY = 64 * 1024;

export interface ViewerServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

export interface ServeOptions {
  readonly source: ViewSource;
  readonly bundle: ViewerBundle;
  /** 0 (default): any free port. */
  readonly port?: number;
  readonly title?: string;
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Validates a posted body with `schema` and saves it; its problems (every one) when it does not pass. */
async function take<T, R extends object>(
  schema: z.ZodType<T>,
  body: unknown,
  save: (request: T) => Promise<R>,
): Promise<R | { problem: string }> {
  const request = schema.safeParse(body);
  if (!request.success)
    return { problem: request.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ') };
  return save(request.data);
}

/** Starts the server on 127.0.0.1 (port 0: any free one) and gives its URL. */
export async function startViewerServer(options: ServeOptions): Promise<ViewerServer> {
  const page = renderServedPage({ title: options.title ?? 'chatbench viewer' });
  let origin = '';
  let guard = hostGuard('127.0.0.1', 0);
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Only requests addressed to this server by its loopback name: a rebinding DNS name is refused.
    if (!guard.allows(req.headers.host)) return problem(res, 421, 'wrong host');
    const url = new URL(req.url ?? '/', origin);
    if (req.method === 'GET' || req.method === 'HEAD') {
      switch (url.pathname) {
        case '/':
        case '/index.html':
          return send(res, 200, 'text/html; charset=utf-8', page, { 'content-security-policy': SERVED_CSP_HEADER });
        case '/assets/viewer.js':
          return send(res, 200, 'text/javascript; charset=utf-8', options.bundle.js);
        case '/assets/viewer.css':
          return send(res, 200, 'text/css; charset=utf-8', options.bundle.css);
        case '/api/data':
          return json(res, 200, await options.source.data());
        case '/api/search':
          return json(res, 200, { ids: await options.source.search(url.searchParams.get('q') ?? '') });
        case '/api/question': {
          const id = url.searchParams.get('id');
          if (id === null) return problem(res, 400, 'id is required');
          const detail = await options.source.question(id);
          return detail === undefined ? problem(res, 404, `no question ${id}`) : json(res, 200, detail);
        }
        case '/api/expectations': {
          const id = url.searchParams.get('id');
          if (id === null) return problem(res, 400, 'id is required');
          return json(res, 200, { expectations: await options.source.expectations(id) });
        }
        case '/api/expectations.csv': {
          const run = Number(url.searchParams.get('run') ?? '0');
          if (!Number.isInteger(run) || run < 0) return problem(res, 400, 'run must be a run index');
          try {
            return send(res, 200, 'text/csv; charset=utf-8', await options.source.completedDataset(run), {
              'content-disposition': 'attachment; filename="expectations.csv"',
            });
          } catch (error) {
            if (error instanceof ToolkitError) return problem(res, 400, error.message);
            throw error;
          }
        }
        default:
          return problem(res, 404, 'not found');
      }
    }
    if (req.method === 'POST' && (url.pathname === '/api/reviews' || url.pathname === '/api/expectations')) {
      // A same-origin fetch sends Origin and a JSON type; a form on another site can do neither.
      if (!sameOrigin(req, guard)) return problem(res, 403, 'cross-origin request refused');
      if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
        return problem(res, 415, 'send application/json');
      const body = await readBody(req);
      if (body === undefined) return problem(res, 413, 'body too large');
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return problem(res, 400, 'not JSON');
      }
      const save =
        url.pathname === '/api/reviews'
          ? () => take(ReviewRequestSchema, parsed, async (r) => ({ review: await options.source.saveReview(r) }))
          : () =>
              take(DecisionRequestSchema, parsed, async (r) => ({ decision: await options.source.saveDecision(r) }));
      const result = await save().catch((error: unknown) => {
        if (error instanceof ToolkitError) return { problem: error.message };
        throw error;
      });
      return 'problem' in result ? problem(res, 400, String(result.problem)) : json(res, 200, result);
    }
    return problem(res, 405, 'method not allowed');
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent)
        problem(res, 500, `internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  guard = hostGuard('127.0.0.1', port);
  origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
