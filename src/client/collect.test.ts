import { describe, expect, it } from 'vitest';
import type { StreamPart } from '../api/stream.js';
import { createCollector } from './collect.js';
import { ExchangeSchema } from './exchange.js';

const placement = (model_index: number | null, turn_index = 1) => ({
  turn_index,
  tab_index: 0,
  sub_turn_index: null,
  model_index,
});
const packet = (obj: Record<string, unknown> & { type: string }, model: number | null = 0): StreamPart =>
  ({ kind: 'packet', part: { placement: placement(model), obj } }) as StreamPart;
const session: StreamPart = { kind: 'session_created', part: { chat_session_id: 'sess-1', incognito: false } };
const ids: StreamPart = { kind: 'message_ids', part: { user_message_id: 101, reserved_assistant_message_id: 102 } };
const delta = (content: string, model = 0) => packet({ type: 'message_delta', content }, model);
const cite = (n: number, doc: string, model = 0) =>
  packet({ type: 'citation_info', citation_number: n, document_id: doc }, model);
const stop = (model: number | null = 0) => packet({ type: 'stop', stop_reason: null }, model);
const heartbeat = packet({ type: 'chat_heartbeat' }, null);
const doc = (id: string) => ({
  document_id: id,
  chunk_ind: 0,
  semantic_identifier: id,
  link: null,
  blurb: '',
  source_type: 'web',
  boost: 0,
  hidden: false,
  metadata: {},
  score: 1,
  is_relevant: null,
  relevance_explanation: null,
  match_highlights: [],
  updated_at: null,
  primary_owners: null,
  secondary_owners: null,
  is_internet: false,
  file_id: null,
});
const streamingError = (code: string, model_index?: number): StreamPart => ({
  kind: 'streaming_error',
  part: {
    error: `boom ${code}`,
    stack_trace: null,
    error_code: code,
    is_retryable: true,
    details: model_index === undefined ? null : { model_index },
  },
});
const decodeError: StreamPart = { kind: 'decode_error', reason: 'not JSON', line: '{oops' };

/** Feeds [t, part] pairs (t relative to sent = 1000) and finishes at `end`. */
function fold(
  steps: ReadonlyArray<readonly [number, StreamPart]>,
  end: number,
  options: { modelNames?: string[] } = {},
) {
  const collector = createCollector({ sent: 1000, modelNames: options.modelNames ?? null });
  for (const [t, part] of steps) collector.onPart(part, 1000 + t);
  return collector.finish(1000 + end);
}
const exchangeOf = (body: ReturnType<typeof fold>) =>
  ExchangeSchema.parse({
    ...body,
    http_status: 200,
    content_type: null,
    headers_ms: 1,
    rate_limit: null,
    sent: 0,
    started_at: 'x',
    error_body: null,
    framing: null,
  });

describe('single model', () => {
  const steps = [
    [5.5, session],
    [6, ids],
    [10, heartbeat],
    [20, packet({ type: 'search_tool_start', is_internet_search: false }, 0)],
    [30, packet({ type: 'message_start', final_documents: [doc('d1'), doc('d2')], pre_answer_processing_seconds: 1 })],
    [35, delta('')],
    [40, delta('Deploy with Docker')],
    [41, cite(2, 'd2')],
    [41, cite(1, ' d1 ')],
    [50, delta(' [[1]](https://x) [[2]] [[7]]')],
    [70, delta('.')],
    [71, stop()],
  ] as const;

  it('measures every milestone relative to sent', () => {
    const f = fold(steps, 72.25);
    expect(f).toMatchObject({
      outcome: 'ok',
      ttfp_ms: 5.5,
      ttft_ms: 40,
      first_citation_ms: 41,
      total_ms: 72.25,
      time_per_delta_ms: 15,
      answer_gaps_ms: [10, 20],
      answer_deltas: 3,
      parts: 11,
      chat_session_id: 'sess-1',
      message_id: 102,
      models: null,
    });
    expect(f.first_packet_ms).toEqual({
      search_tool_start: 20,
      message_start: 30,
      message_delta: 35,
      citation_info: 41,
      stop: 71,
    });
    expect(() => exchangeOf(f)).not.toThrow();
  });
  it('keeps the answer, citations in arrival order, the ranked list and orphan markers', () => {
    const f = fold(steps, 72);
    expect(f.answer).toBe('Deploy with Docker [[1]](https://x) [[2]] [[7]].');
    expect(f.answer_chars).toBe(f.answer?.length);
    expect(f.citations.map((c) => c.citation_number)).toEqual([2, 1]);
    expect(f.cited_document_ids).toEqual(['d1', 'd2']);
    expect(f.top_document_ids).toEqual(['d1', 'd2']);
    expect(f.markers_without_citation).toEqual([7]);
  });
  it('excludes heartbeats from ttfp and parts, and an empty delta is not the first answer', () => {
    const f = fold(
      [
        [3, heartbeat],
        [8, delta('')],
        [12, delta('a')],
        [13, stop()],
      ],
      14,
    );
    expect(f).toMatchObject({
      ttfp_ms: 8,
      ttft_ms: 12,
      parts: 3,
      answer_deltas: 1,
      time_per_delta_ms: null,
      answer_gaps_ms: [],
    });
  });
  it('counts characters as code points and reasoning separately', () => {
    const f = fold(
      [
        [1, packet({ type: 'reasoning_delta', reasoning: 'thinking' })],
        [2, delta('é😀')],
        [3, stop()],
      ],
      4,
    );
    expect(f).toMatchObject({ answer_chars: 2, reasoning_chars: 8 });
  });
  it('a stream that ends without stop is truncated; an empty one is invalid', () => {
    expect(
      fold(
        [
          [1, ids],
          [2, delta('a')],
        ],
        3,
      ).outcome,
    ).toBe('truncated');
    expect(fold([], 3)).toMatchObject({ outcome: 'invalid_response', ttfp_ms: null, answer: null, parts: 0 });
    expect(fold([[1, heartbeat]], 3).outcome).toBe('invalid_response');
  });
  it('a streaming error ends the answer with its code, with or without model_index', () => {
    for (const error of [streamingError('RATE_LIMIT'), streamingError('RATE_LIMIT', 0)]) {
      const f = fold(
        [
          [1, ids],
          [2, delta('part')],
          [9, error],
        ],
        10,
      );
      expect(f).toMatchObject({
        outcome: 'stream_error',
        error_code: 'RATE_LIMIT',
        error_message: 'boom RATE_LIMIT',
        answer: 'part',
        total_ms: 10,
      });
    }
  });
  it('decode errors are counted and make an otherwise complete answer invalid; unknown types are counted and kept', () => {
    const f = fold(
      [
        [1, ids],
        [2, decodeError],
        [3, packet({ type: 'future_tool_start' })],
        [4, delta('a')],
        [5, stop()],
      ],
      6,
    );
    expect(f).toMatchObject({
      outcome: 'invalid_response',
      decode_errors: 1,
      unknown_parts: 1,
      parts: 4,
      error_message: 'a part could not be decoded: not JSON',
    });
    expect(f.first_packet_ms).toHaveProperty('future_tool_start', 3);
    expect(
      fold(
        [
          [1, decodeError],
          [2, streamingError('MODEL_ERROR')],
        ],
        3,
      ).outcome,
    ).toBe('stream_error');
  });
  it('a failure applies to the unfinished answer, and outranks ok after a stop', () => {
    const collector = createCollector({ sent: 0 });
    collector.onPart(delta('a'), 5);
    expect(
      collector.finish(100, { outcome: 'timeout', error_code: null, error_message: 'no end after 100 ms' }),
    ).toMatchObject({ outcome: 'timeout', error_message: 'no end after 100 ms', answer: 'a', total_ms: 100 });
    const stopped = createCollector({ sent: 0 });
    stopped.onPart(stop(), 5);
    expect(stopped.finish(9, { outcome: 'network', error_code: 'ECONNRESET', error_message: 'reset' })).toMatchObject({
      outcome: 'network',
      error_code: 'ECONNRESET',
    });
  });
  it('rounds to microseconds', () => {
    const f = fold(
      [
        [1.23456789, delta('a')],
        [2.0000004, stop()],
      ],
      3.3333333,
    );
    expect(f).toMatchObject({ ttfp_ms: 1.235, ttft_ms: 1.235, total_ms: 3.333 });
  });
});

/** Two models in one stream (the multi-model describes). */
const two = { modelNames: ['m0', 'm1'] };
const multiIds: StreamPart = {
  kind: 'multi_model_ids',
  part: {
    user_message_id: 1,
    responses: [
      { message_id: 2, model_name: 'fast' },
      { message_id: 3, model_name: 'slow' },
    ],
  },
};

describe('multi-model', () => {
  const base = [
    [2, session],
    [3, multiIds],
    [10, packet({ type: 'message_start', final_documents: [doc('a')] }, 0)],
    [12, packet({ type: 'message_start', final_documents: [doc('b')] }, 1)],
    [20, delta('fast ', 0)],
    [25, cite(1, 'a', 0)],
    [30, delta('answer [[1]]', 0)],
    [40, delta('slow ', 1)],
    [60, delta('answer', 1)],
    [80, delta('!', 1)],
    [81, stop(0)],
  ] as const;

  it('keeps every milestone, answer and outcome per model_index', () => {
    const f = fold([...base, [90, stop(1)]], 95, two);
    expect(f).toMatchObject({
      outcome: 'ok',
      ttfp_ms: 2,
      ttft_ms: 20,
      first_citation_ms: 25,
      total_ms: 95,
      answer: null,
      answer_deltas: 5,
    });
    expect(f.models).toHaveLength(2);
    expect(f.models?.[0]).toMatchObject({
      model_index: 0,
      model_name: 'fast',
      outcome: 'ok',
      ttfp_ms: 10,
      ttft_ms: 20,
      total_ms: 81,
      time_per_delta_ms: 10,
      answer: 'fast answer [[1]]',
      cited_document_ids: ['a'],
      top_document_ids: ['a'],
      scores: null,
    });
    expect(f.models?.[1]).toMatchObject({
      model_index: 1,
      model_name: 'slow',
      outcome: 'ok',
      ttfp_ms: 12,
      ttft_ms: 40,
      total_ms: 90,
      time_per_delta_ms: 20,
      answer_gaps_ms: [20, 20],
      answer: 'slow answer!',
      cited_document_ids: [],
    });
    expect(() => exchangeOf(f)).not.toThrow();
  });
  it('a streaming error with details.model_index ends only that model; the record is the worst', () => {
    const f = fold([...base, [85, streamingError('MODEL_ERROR', 1)]], 95, two);
    expect(f.models?.map((m) => m.outcome)).toEqual(['ok', 'stream_error']);
    expect(f).toMatchObject({ outcome: 'stream_error', error_code: 'MODEL_ERROR' });
    expect(f.models?.[1]?.total_ms).toBe(85);
  });
  it('a streaming error without model_index ends every unfinished model', () => {
    const f = fold([...base, [85, streamingError('UNKNOWN_ERROR')]], 95, two);
    expect(f.models?.map((m) => [m.outcome, m.error_code])).toEqual([
      ['ok', null],
      ['stream_error', 'UNKNOWN_ERROR'],
    ]);
  });
  it('a model that never stops is truncated at the end of the body', () => {
    const f = fold(base, 95, two);
    expect(f.models?.map((m) => [m.outcome, m.total_ms])).toEqual([
      ['ok', 81],
      ['truncated', 95],
    ]);
    expect(f.outcome).toBe('truncated');
  });
  it('expected models that send nothing exist, named from the plan until the ids part renames them', () => {
    const f = fold(
      [
        [1, delta('x', 0)],
        [1, packet({ type: 'stop', stop_reason: null }, 0)],
      ],
      5,
      { modelNames: ['m0', 'm1', 'm2'] },
    );
    expect(f.models?.map((m) => [m.model_name, m.outcome])).toEqual([
      ['m0', 'ok'],
      ['m1', 'truncated'],
      ['m2', 'truncated'],
    ]);
    const renamed = fold([[1, multiIds]], 5, { modelNames: ['m0', 'm1'] });
    expect(renamed.models?.map((m) => m.model_name)).toEqual(['fast', 'slow']);
  });
  it('a stop with a null model_index (user cancel) stops every unfinished model', () => {
    const f = fold(
      [
        [1, multiIds],
        [2, delta('x', 0)],
        [2, delta('x', 1)],
        [3, stop(null)],
      ],
      4,
      two,
    );
    expect(f.models?.map((m) => m.outcome)).toEqual(['ok', 'ok']);
  });
});

describe('runs of one packet type (looked up once a run)', () => {
  it('times each type at its first packet, per request and per model, however the models interleave', () => {
    const f = fold(
      [
        [1, multiIds],
        [2, delta('a', 1)],
        [3, delta('b', 1)],
        [4, delta('c', 0)],
        [5, delta('d', 1)],
        [6, stop(0)],
        [7, delta('e', 1)],
        [8, stop(1)],
      ],
      9,
      two,
    );
    expect(f.first_packet_ms).toEqual({ message_delta: 2, stop: 6 });
    expect(f.models?.map((m) => m.first_packet_ms)).toEqual([
      { message_delta: 4, stop: 6 },
      { message_delta: 2, stop: 8 },
    ]);
    expect(f.models?.map((m) => m.answer)).toEqual(['c', 'abde']);
  });
});

describe('bounded whatever the stream holds (issue 23)', () => {
  it('the first 64 packet types are timed, the packets of the others counted; ids cut as they arrive; citations capped', () => {
    const huge = 'x'.repeat(3_000_000);
    const steps: Array<readonly [number, StreamPart]> = [
      [1, { kind: 'session_created', part: { chat_session_id: huge, incognito: false } }],
      [2, ids],
      ...Array.from({ length: 1_000 }, (_, i) => [3, packet({ type: `invented_${i}` })] as const),
      ...Array.from({ length: 2_000 }, (_, i) => [4, cite(i + 1, huge)] as const),
      [5, delta('answer')],
      [6, stop()],
    ];
    const figures = fold(steps, 7);
    expect(Object.keys(figures.first_packet_ms)).toHaveLength(64);
    expect(figures.first_packet_others).toBe(1_000 - 64 + 2_000 + 2); // citation_info, message_delta and stop came after the map filled
    expect(figures.chat_session_id?.length).toBe(512);
    expect(figures.citations).toHaveLength(500);
    expect(figures.citations[0]?.document_id.length).toBe(512);
    expect(figures.parts).toBe(3_004);
    expect(() => exchangeOf(figures)).not.toThrow();
  });
});

describe('keepDocuments', () => {
  it('false: top_documents stays empty, the ids and every other figure as with documents', () => {
    const parts: [number, StreamPart][] = [
      [10, session],
      [20, packet({ type: 'message_start', final_documents: [doc('d1'), doc('d2')] })],
      [30, delta('Answer [[1]]')],
      [40, cite(1, 'd2')],
      [50, stop()],
    ];
    const fold = (keepDocuments: boolean) => {
      const c = createCollector({ sent: 0, keepDocuments });
      for (const [t, part] of parts) c.onPart(part, t);
      return c.finish(60);
    };
    const kept = fold(true);
    const without = fold(false);
    expect(kept.top_documents.map((d) => d.document_id)).toEqual(['d1', 'd2']);
    expect(without).toEqual({ ...kept, top_documents: [] });
    expect(without.top_document_ids).toEqual(['d1', 'd2']);
  });
});
