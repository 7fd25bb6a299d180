/**
 * @module client/warm-up
 * Runs the client's whole hot path on synthetic exchanges before a run's first request, so that
 * the first wave is timed like the hundredth. Cold, the first responses of a run pay for things no
 * later one does: undici compiling its HTTP parser (a WebAssembly module, built on first use), the
 * JIT compiling the decoder, the fold of parts and the response schemas, lazily created pools. A
 * throwaway server on 127.0.0.1 (never the target: it sees nothing of this) answers streamed
 * NDJSON, split across writes as a real stream is, and full JSON, through a chat client built like
 * the run's.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createChatClient } from './chat-client.js';
import type { Exchange } from './exchange.js';

/** Exchanges per warm-up, and how many at once: enough for the JIT to compile the hot functions. */
const ROUNDS = 24;
const AT_ONCE = 4;

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

/** A complete synthetic stream as the service sends it (docs/reference/wire-format.md), one part per line. */
export function syntheticStreamLines(): string[] {
  const part = (turn: number, obj: object) => JSON.stringify({ placement: placement(turn), obj });
  return [
    JSON.stringify({ chat_session_id: '00000000-0000-4000-8000-000000000000', incognito: false }),
    JSON.stringify({ user_message_id: 1, reserved_assistant_message_id: 2 }),
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

function answer(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const stream = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { stream?: boolean }).stream !== false;
    if (!stream) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(syntheticFullResponse());
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    // Lines cut across writes, as a real stream arrives: the decoder's reassembly runs too.
    const text = syntheticStreamLines()
      .map((line) => `${line}\n`)
      .join('');
    const cut = Math.floor(text.length / 3);
    res.write(text.slice(0, cut));
    res.write(text.slice(cut, 2 * cut));
    res.end(text.slice(2 * cut));
  });
}

/** What a warm-up did: its exchanges (every one should be ok) and how long it took. */
export interface WarmUp {
  readonly exchanges: readonly Exchange[];
  readonly ms: number;
}

/** Set once a warm-up ran: what it compiles stays compiled for the life of the process. */
let warmed: Promise<WarmUp> | undefined;

/**
 * Runs the warm-up once per process (tens of ms; later calls resolve with the first one's result),
 * with its exchanges for the caller's own warm-up (scoring). `force` runs it again.
 */
export function warmUpClient(options: { rounds?: number; now?: () => number; force?: boolean } = {}): Promise<WarmUp> {
  // A warm-up that fails (no loopback port?) costs the run its warmth, never the run itself.
  if (warmed === undefined || options.force) warmed = runWarmUp(options).catch(() => ({ exchanges: [], ms: 0 }));
  return warmed;
}

async function runWarmUp(options: { rounds?: number; now?: () => number }): Promise<WarmUp> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const server = createServer(answer);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = createChatClient({ baseUrl: `http://127.0.0.1:${port}/api`, connections: AT_ONCE, timeoutMs: 10_000 });
  const exchanges: Exchange[] = [];
  try {
    const rounds = options.rounds ?? ROUNDS;
    for (let i = 0; i < rounds; i += AT_ONCE) {
      const batch = Array.from({ length: Math.min(AT_ONCE, rounds - i) }, (_, j) =>
        client.send({ message: 'warm up', stream: (i + j) % 4 !== 3 }),
      );
      exchanges.push(...(await Promise.all(batch)));
    }
  } finally {
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return { exchanges, ms: now() - started };
}
