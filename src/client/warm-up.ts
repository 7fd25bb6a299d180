/**
 * @module client/warm-up
 * Runs the client's whole hot path on synthetic exchanges before a run's first request, so that
 * the first wave is timed like the hundredth. Cold, the first responses of a run pay for things no
 * later one does: undici compiling its HTTP parser (a WebAssembly module, built on first use), the
 * JIT compiling the decoder, the fold of parts and the response schemas, lazily created pools. A
 * throwaway server on 127.0.0.1 (never the target: it sees nothing of this) answers streamed
 * NDJSON, split across writes as a real stream is, and full JSON, through a chat client built like
 * the run's.
 *
 * First, the per-part path alone (the client's handler, the decoder, the fold, the record's figures)
 * runs in-process on IN_PROCESS_ROUNDS long synthetic streams, through a dispatcher that answers at once:
 * V8 optimises a function only after thousands of calls, and at a real service's pace (a part a
 * chunk, ~250 chunks a second at 20 users) that took the first 20 s of a run, every part of them
 * decoded by slower code while the compiler worked beside the run (docs/benchmarks-log.md, "Session 35").
 * The stream is in the service's own format (Python's `json.dumps`: `", "` and `": "`), so the
 * answer deltas take the decoder's fast path as they will in the run.
 *
 * A load run warms more, in its own mode (`run`): its requests come hundreds a second, and with
 * only the warm-up above 197 functions on their path (undici's writes and parser, Node's sockets
 * and timers, the fold of a full answer, the record's steps) were still being optimised during a
 * 4 s run at full 1,000/s, beside and between the timed requests (`--trace-opt`,
 * docs/benchmarks-log.md, "Session 58"). So full answers run through the handler in-process
 * (RUN_IN_PROCESS_ROUNDS), then answers of the run's mode over loopback (RUN_LOOPBACK_ROUNDS): long
 * ones, ten documents and a tool call as a search gives. Both shrink for a run that plans fewer
 * than WARM_FOR_REQUESTS requests, so the warm-up never costs more than a share of the run.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Dispatcher } from 'undici';
import type { Mode } from '../records/record.js';
import { createChatClient } from './chat-client.js';
import type { Exchange } from './exchange.js';

/** Exchanges over loopback per warm-up, and how many at once: undici's parser and the sockets' path warmed. */
const ROUNDS = 24;
const AT_ONCE = 4;
/**
 * Synthetic streams (longStreamLines) through the client's handler in-process: some 12,000 parts,
 * enough for V8 to optimise the per-part path (with --trace-opt on Node 20: the decoder's and the
 * fold's functions optimised by the end of the warm-up; at 60 rounds the fold's were not yet), about
 * 200 ms of CPU once per process.
 */
const IN_PROCESS_ROUNDS = 120;
/**
 * A load run's own warm-up at full size (runRounds): full answers through the handler in-process
 * (a full request is one call of each function, where a stream is hundreds), then answers of the
 * run's mode over loopback, RUN_AT_ONCE at a time. ~0.5 s of CPU once, before the first send; at
 * full 1,000/s the run's CPU a request fell to 0.86× in rounds of 4 s, 0.92× in rounds of 10 s
 * (docs/benchmarks-log.md, "Session 58"), and neither part alone did as much (0.95×, 0.93×).
 */
const RUN_IN_PROCESS_ROUNDS = 2_000;
const RUN_LOOPBACK_ROUNDS = 400;
const RUN_AT_ONCE = 16;
/** The planned requests from which a load run gets the whole warm-up; a smaller run, its share. */
export const WARM_FOR_REQUESTS = 2_000;

const placement = (turn: number) => ({ turn_index: turn, tab_index: 0, sub_turn_index: null, model_index: 0 });
const DOC = {
  document_id: 'warm-up-doc',
  chunk_ind: 0,
  semantic_identifier: 'Warm-up',
  link: 'https://warm-up.invalid/doc',
  blurb: 'A synthetic document.',
  source_type: 'web',
  boost: 0,
  hidden: false,
  metadata: {},
  score: 0.9,
  is_relevant: null,
  relevance_explanation: null,
  match_highlights: ['A <hi>synthetic</hi> document'],
  updated_at: null,
  primary_owners: null,
  secondary_owners: null,
  is_internet: false,
  file_id: null,
};
const WORDS = ['The', ' synthetic', ' answer', ' warms', ' the', ' decoder', ' and', ' the', ' fold', ' of', ' parts'];

/**
 * `value` as the service's Python writes it (`json.dumps` with its default separators `", "` and
 * `": "`); the synthetic values are ASCII, so `ensure_ascii` changes nothing.
 */
function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, v]) => `${JSON.stringify(key)}: ${pythonJson(v)}`)
      .join(', ')}}`;
  return JSON.stringify(value);
}

/** A complete synthetic stream as the service sends it (docs/reference/wire-format.md), one part per line. */
export function syntheticStreamLines(): string[] {
  const part = (turn: number, obj: object) => pythonJson({ placement: placement(turn), obj });
  return [
    pythonJson({ chat_session_id: '00000000-0000-4000-8000-000000000000', incognito: false }),
    pythonJson({ user_message_id: 1, reserved_assistant_message_id: 2 }),
    part(0, { type: 'search_tool_start', is_internet_search: false }),
    part(0, { type: 'search_tool_queries_delta', queries: ['warm up'] }),
    part(0, { type: 'search_tool_documents_delta', documents: [DOC] }),
    part(0, { type: 'section_end' }),
    part(1, { type: 'message_start', final_documents: [DOC] }),
    ...WORDS.map((content) => part(1, { type: 'message_delta', content })),
    part(1, { type: 'citation_info', citation_number: 1, document_id: DOC.document_id }),
    part(1, { type: 'message_delta', content: ` [[1]](${DOC.link}).` }),
    part(1, { type: 'stop', stop_reason: null }),
  ];
}

/** Answer deltas of the in-process streams: parts, not requests, are what the warm-up must repeat. */
const LONG_DELTAS = 100;
/** Documents in each list of the in-process streams (a search's usual ten). */
const LONG_DOCS = 10;

/** LONG_DOCS documents, each with its own id and link. */
const longDocs = () =>
  Array.from({ length: LONG_DOCS }, (_, i) => ({
    ...DOC,
    document_id: `warm-up-doc-${i}`,
    link: `${DOC.link}/${i}`,
  }));

/**
 * The synthetic stream of the in-process warm-up: LONG_DOCS documents a list and LONG_DELTAS
 * answer deltas, so that one request folds many parts.
 */
export function longStreamLines(): string[] {
  const docs = longDocs();
  const part = (turn: number, obj: object) => pythonJson({ placement: placement(turn), obj });
  const delta = part(1, { type: 'message_delta', content: ' again' });
  return syntheticStreamLines().flatMap((line) => {
    if (line.includes('"search_tool_documents_delta"'))
      return [part(0, { type: 'search_tool_documents_delta', documents: docs })];
    if (line.includes('"message_start"'))
      return [
        part(1, { type: 'message_start', final_documents: docs }),
        ...Array.from({ length: LONG_DELTAS }, () => delta),
      ];
    return [line];
  });
}

/** The synthetic answer of a full (stream=false) request. */
export function syntheticFullResponse(): string {
  const answer = `${WORDS.join('')} [[1]](${DOC.link}).`;
  return JSON.stringify({
    answer,
    answer_citationless: `${WORDS.join('')}.`,
    pre_answer_reasoning: null,
    tool_calls: [],
    top_documents: [DOC],
    citation_info: [{ type: 'citation_info', citation_number: 1, document_id: DOC.document_id }],
    message_id: 2,
    chat_session_id: '00000000-0000-4000-8000-000000000000',
    incognito: false,
    error_msg: null,
  });
}

/**
 * The synthetic full answer of a load run's warm-up: LONG_DOCS documents, found by a search tool
 * call that lists them again, and two of them cited, as a search's answer comes.
 */
export function longFullResponse(): string {
  const docs = longDocs();
  const answer = `${WORDS.join('')} [[1]](${docs[0]!.link}), as${WORDS.join('')} [[2]](${docs[1]!.link}).`;
  return JSON.stringify({
    answer,
    answer_citationless: `${WORDS.join('')}, as${WORDS.join('')}.`,
    pre_answer_reasoning: null,
    tool_calls: [
      {
        tool_name: 'internal_search',
        tool_arguments: { queries: ['warm up'] },
        tool_result: JSON.stringify(docs.map((d, i) => ({ document_number: i + 1, document_id: d.document_id }))),
        search_docs: docs,
        generated_images: null,
        pre_reasoning: null,
      },
    ],
    top_documents: docs,
    citation_info: [1, 2].map((n) => ({
      type: 'citation_info',
      citation_number: n,
      document_id: docs[n - 1]!.document_id,
    })),
    message_id: 2,
    chat_session_id: '00000000-0000-4000-8000-000000000000',
    incognito: false,
    error_msg: null,
  });
}

/** The message of the warm-up's requests that ask for the long answers (the run's own phase). */
const AT_LENGTH = 'warm up at length';

/** `make`'s text, made at the first call: the server's answers are the same for every request. */
const once = (make: () => string): (() => string) => {
  let made: string | undefined;
  return () => (made ??= make());
};
const streamText = (lines: readonly string[]) => lines.map((line) => `${line}\n`).join('');
const ANSWERS = {
  full: once(syntheticFullResponse),
  longFull: once(longFullResponse),
  stream: once(() => streamText(syntheticStreamLines())),
  longStream: once(() => streamText(longStreamLines())),
};

function answer(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const asked = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { stream?: boolean; message?: string };
    const long = asked.message === AT_LENGTH;
    if (asked.stream === false) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(long ? ANSWERS.longFull() : ANSWERS.full());
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // Lines cut across writes, as a real stream arrives: the decoder's reassembly runs too.
    const text = long ? ANSWERS.longStream() : ANSWERS.stream();
    const cut = Math.floor(text.length / 3);
    res.write(text.slice(0, cut));
    res.write(text.slice(cut, 2 * cut));
    res.end(text.slice(2 * cut));
  });
}

/**
 * What a warm-up did: its exchanges (every one should be ok), how many the caller's own warm-up
 * should make records of, cycling over them, and how long it took. A load run's own rounds keep only
 * their last batch and answer (the warm-up's result lives as long as the process: 2,400 exchanges
 * would hold megabytes for nothing), and ask for as many records as they made exchanges.
 */
export interface WarmUp {
  readonly exchanges: readonly Exchange[];
  readonly rehearsals: number;
  readonly ms: number;
}

/** What a load run will send, for its own warm-up: its mode, and how many requests (counted up to WARM_FOR_REQUESTS). */
export interface RunWarmUp {
  readonly mode: Mode;
  readonly requests: number;
}

export interface WarmUpClientOptions {
  /** Exchanges over loopback (default ROUNDS). */
  rounds?: number;
  /** Synthetic streams through the handler in-process, before those (default IN_PROCESS_ROUNDS). */
  inProcessRounds?: number;
  /** A load run's own warm-up (runRounds); eval's has none. */
  run?: RunWarmUp | undefined;
  now?: () => number;
  force?: boolean;
}

/**
 * The rounds of a load run's own warm-up: the whole of it from WARM_FOR_REQUESTS planned requests
 * on, a share of it below (none for a run of no request). In-process full answers only for a full run.
 */
export function runRounds(run: RunWarmUp | undefined): { inProcess: number; loopback: number } {
  if (run === undefined) return { inProcess: 0, loopback: 0 };
  const share = Math.min(1, Math.max(0, run.requests) / WARM_FOR_REQUESTS);
  return {
    inProcess: run.mode === 'full' ? Math.round(RUN_IN_PROCESS_ROUNDS * share) : 0,
    loopback: Math.round(RUN_LOOPBACK_ROUNDS * share),
  };
}

/** Set once a warm-up ran: what it compiles stays compiled for the life of the process. */
let warmed: Promise<WarmUp> | undefined;
/** A load run's own rounds done in this process, by mode, and the largest `runRounds` they were. */
const warmedRuns = new Map<Mode, { loopback: number; result: Promise<WarmUp> }>();

/**
 * Runs the warm-up once per process (tens of ms; later calls resolve with the first one's result),
 * with its exchanges for the caller's own warm-up (scoring, the record's steps); with `run`, a load
 * run's own rounds after it (~0.5 s more), once per mode unless a later run asks for more of them.
 * `force` runs both again.
 */
export function warmUpClient(options: WarmUpClientOptions = {}): Promise<WarmUp> {
  // A warm-up that fails (no loopback port?) costs the run its warmth, never the run itself.
  const failed = (): WarmUp => ({ exchanges: [], rehearsals: 0, ms: 0 });
  if (warmed === undefined || options.force) {
    warmed = runWarmUp(options).catch(failed);
    warmedRuns.clear();
  }
  const base = warmed;
  const run = options.run;
  const rounds = runRounds(run);
  if (run === undefined || rounds.loopback === 0) return base;
  const done = warmedRuns.get(run.mode);
  if (done !== undefined && done.loopback >= rounds.loopback) return done.result;
  const now = options.now ?? (() => performance.now());
  const result = base.then(async (first) => {
    const started = now();
    const own = await runOwnRounds(run.mode, rounds).catch(failed);
    return {
      exchanges: [...first.exchanges, ...own.exchanges],
      rehearsals: first.rehearsals + own.rehearsals,
      ms: first.ms + (now() - started),
    };
  });
  warmedRuns.set(run.mode, { loopback: rounds.loopback, result });
  return result;
}

async function runWarmUp(options: WarmUpClientOptions): Promise<WarmUp> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  await warmPerPartPath(options.inProcessRounds ?? IN_PROCESS_ROUNDS);
  const rounds = options.rounds ?? ROUNDS;
  const exchanges = await overLoopback(AT_ONCE, async (client) => {
    const made: Exchange[] = [];
    for (let i = 0; i < rounds; i += AT_ONCE) {
      const batch = Array.from({ length: Math.min(AT_ONCE, rounds - i) }, (_, j) =>
        client.send({ message: 'warm up', stream: (i + j) % 4 !== 3 }),
      );
      made.push(...(await Promise.all(batch)));
    }
    return made;
  });
  return { exchanges, rehearsals: rounds, ms: now() - started };
}

/**
 * A load run's own rounds (runRounds): full answers in-process for a full run, then long answers
 * of its mode over loopback; keeps the last batch and answer, and counts every exchange made.
 */
async function runOwnRounds(mode: Mode, rounds: { inProcess: number; loopback: number }): Promise<WarmUp> {
  const lastInProcess = await warmFullPath(rounds.inProcess);
  const lastBatch = await overLoopback(RUN_AT_ONCE, async (client) => {
    let batch: Exchange[] = [];
    for (let i = 0; i < rounds.loopback; i += RUN_AT_ONCE)
      batch = await Promise.all(
        Array.from({ length: Math.min(RUN_AT_ONCE, rounds.loopback - i) }, () =>
          client.send({ message: AT_LENGTH, stream: mode === 'stream' }),
        ),
      );
    return batch;
  });
  return {
    exchanges: [...lastBatch, ...(lastInProcess === undefined ? [] : [lastInProcess])],
    rehearsals: rounds.inProcess + rounds.loopback,
    ms: 0,
  };
}

/** Runs `use` with a chat client of `connections` to a throwaway loopback server (answer), then closes both. */
async function overLoopback<T>(
  connections: number,
  use: (client: ReturnType<typeof createChatClient>) => Promise<T>,
): Promise<T> {
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = createChatClient({ baseUrl: `http://127.0.0.1:${port}/api`, connections, timeoutMs: 10_000 });
  try {
    return await use(client);
  } finally {
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * Runs `rounds` synthetic streams through a chat client whose dispatcher answers in-process and at
 * once: most a line a chunk (a real service's pace), the others in one chunk (a fast simulator) or
 * cut mid-line, so that each path of the decoder is optimised. Nothing leaves the process.
 */
async function warmPerPartPath(rounds: number): Promise<void> {
  const lines = longStreamLines().map((line) => Buffer.from(`${line}\n`));
  const whole = Buffer.concat(lines);
  const cut = Math.floor(whole.length / 3);
  const thirds = [whole.subarray(0, cut), whole.subarray(cut, 2 * cut), whole.subarray(2 * cut)];
  const client = createChatClient({
    baseUrl: 'http://127.0.0.1/api',
    dispatcher: replayDispatcher([lines, lines, lines, [whole], thirds]),
    timeoutMs: 10_000,
  });
  for (let i = 0; i < rounds; i++) await client.send({ message: 'warm up', stream: true });
}

/**
 * Runs `rounds` long full answers (longFullResponse) through a chat client whose dispatcher answers
 * in-process and at once, most in one chunk, every third cut in two (the body's text joined); the
 * last one's exchange.
 */
async function warmFullPath(rounds: number): Promise<Exchange | undefined> {
  if (rounds <= 0) return undefined;
  const whole = Buffer.from(longFullResponse());
  const cut = Math.floor(whole.length / 2);
  const client = createChatClient({
    baseUrl: 'http://127.0.0.1/api',
    dispatcher: replayDispatcher([[whole], [whole], [whole.subarray(0, cut), whole.subarray(cut)]], 'application/json'),
    timeoutMs: 10_000,
  });
  let last: Exchange | undefined;
  for (let i = 0; i < rounds; i++) last = await client.send({ message: AT_LENGTH, stream: false });
  return last;
}

/**
 * A dispatcher that answers each request at once with the next of `chunkings`, status 200 with
 * `contentType` (a stream by default); test/bench/send-path.bench.ts replays with it too.
 */
export function replayDispatcher(
  chunkings: readonly (readonly Buffer[])[],
  contentType = 'text/event-stream',
): Dispatcher {
  let round = 0;
  const controller: Dispatcher.DispatchController = {
    aborted: false,
    paused: false,
    reason: null,
    abort() {},
    pause() {},
    resume() {},
  };
  const headers = { 'content-type': contentType };
  const replay = {
    dispatch(_request: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      const chunks = chunkings[round++ % chunkings.length] ?? [];
      handler.onRequestStart?.(controller, {});
      handler.onResponseStart?.(controller, 200, headers, 'OK');
      for (const chunk of chunks) handler.onResponseData?.(controller, chunk);
      handler.onResponseEnd?.(controller, {});
      return true;
    },
  };
  // The client calls dispatch() alone: the rest of a Dispatcher is never reached.
  return replay as unknown as Dispatcher;
}
