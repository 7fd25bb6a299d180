/**
 * The collector over what every Onyx release sends (docs/reference/onyx-releases.md, issue 10): parts
 * decoded from byte-exact lines, so the decoder and the collector are tested together.
 */
import { describe, expect, it } from 'vitest';
import { createStreamDecoder } from './wire/index.js';
import { createCollector, type CollectorOptions } from './collect.js';

/** Decodes `lines` (the stream as a release writes it), one part every ms from t = 1, and finishes at the end. */
function fold(lines: readonly string[], options: Partial<CollectorOptions> = {}) {
  const decoder = createStreamDecoder();
  const collector = createCollector({ sent: 0, ...options });
  let t = 0;
  for (const line of lines) {
    t += 1;
    for (const part of decoder.push(new TextEncoder().encode(`${line}\n`))) collector.onPart(part, t);
  }
  for (const part of decoder.end()) collector.onPart(part, t);
  return collector.finish(t + 1);
}

const DOC = (id: string, link: string) =>
  `{"document_id": "${id}", "chunk_ind": 0, "semantic_identifier": "${id}", "link": "${link}", "blurb": "b", "source_type": "web", "boost": 0, "hidden": false, "metadata": {}, "score": 0.5, "is_relevant": null, "relevance_explanation": null, "match_highlights": [], "updated_at": null, "primary_owners": null, "secondary_owners": null, "is_internet": false}`;
/** Placement as a release writes it: `absent` before v3.1, `null` in v3.1, else the index. */
const at = (turn: number, model: number | null | 'absent' = 0) =>
  model === 'absent'
    ? `{"turn_index": ${turn}, "tab_index": 0, "sub_turn_index": null}`
    : `{"turn_index": ${turn}, "tab_index": 0, "sub_turn_index": null, "model_index": ${model === null ? 'null' : model}}`;
const pk = (obj: string, turn = 1, model: number | null | 'absent' = 0) =>
  `{"placement": ${at(turn, model)}, "obj": ${obj}}`;

/** A complete v2.7 answer: no incognito, no model_index, message_start without pre_answer_processing_seconds. */
const V2_7 = [
  '{"chat_session_id": "6f1c2d3e-1111-4a2b-9c3d-0123456789ab"}',
  '{"user_message_id": 1, "reserved_assistant_message_id": 2}',
  pk('{"type": "search_tool_start", "is_internet_search": false}', 0, 'absent'),
  pk('{"type": "search_tool_queries_delta", "queries": ["pto"]}', 0, 'absent'),
  pk(`{"type": "search_tool_documents_delta", "documents": [${DOC('a', 'https://x/a')}]}`, 0, 'absent'),
  pk('{"type": "section_end"}', 0, 'absent'),
  pk(`{"type": "message_start", "final_documents": [${DOC('a', 'https://x/a')}]}`, 1, 'absent'),
  pk('{"type": "message_delta", "content": "Twenty-five days"}', 1, 'absent'),
  pk('{"type": "citation_info", "citation_number": 1, "document_id": "a"}', 1, 'absent'),
  pk('{"type": "message_delta", "content": " [[1]](https://x/a)."}', 1, 'absent'),
  pk('{"type": "stop", "stop_reason": null}', 1, 'absent'),
];

describe('every release decodes to the same answer', () => {
  it.each([
    { release: 'v2.7 (no model_index, no incognito)', lines: V2_7 },
    {
      release: 'v3.1 (model_index null on every packet)',
      lines: V2_7.map((l) => l.replace('"sub_turn_index": null}', '"sub_turn_index": null, "model_index": null}')),
    },
    {
      release: 'v4.6 (model_index 0, incognito)',
      lines: [
        V2_7[0]!.replace('"}', '", "incognito": false}'),
        ...V2_7.slice(1).map((l) => l.replace('"sub_turn_index": null}', '"sub_turn_index": null, "model_index": 0}')),
      ],
    },
  ])('$release', ({ lines }) => {
    const f = fold(lines);
    expect(f).toMatchObject({
      outcome: 'ok',
      error_message: null,
      decode_errors: 0,
      unknown_parts: 0,
      answer: 'Twenty-five days [[1]](https://x/a).',
      cited_document_ids: ['a'],
      top_document_ids: ['a'],
      markers_without_citation: [],
      chat_session_id: '6f1c2d3e-1111-4a2b-9c3d-0123456789ab',
      ttfp_ms: 1,
      ttft_ms: 8,
      first_citation_ms: 9,
      models: null,
    });
    expect(f.first_packet_ms).toMatchObject({ search_tool_documents_delta: 5, message_start: 7 });
  });
});

describe('multi-model asked, one model answered (a release before v3.2 ignores llm_overrides)', () => {
  it('names the one model that answered and scores nothing as if both had', () => {
    const v31 = V2_7.map((l) => l.replace('"sub_turn_index": null}', '"sub_turn_index": null, "model_index": null}'));
    const f = fold(v31, { modelNames: ['fast', 'slow'] });
    expect(f.outcome).toBe('invalid_response');
    expect(f.answered_models).toBe(1);
    expect(f.error_message).toMatch(/2 models were asked .* answered with one, its configured model/);
    expect(f.models).toHaveLength(1);
    expect(f.models?.[0]).toMatchObject({
      model_index: 0,
      model_name: null,
      outcome: 'invalid_response',
      answer: 'Twenty-five days [[1]](https://x/a).',
    });
  });
});

describe('a model_index outside the request is a decode error of that part', () => {
  const ids =
    '{"user_message_id": 1, "responses": [{"message_id": 2, "model_name": "fast"}, {"message_id": 3, "model_name": "slow"}]}';
  const answer = (m: number) => [
    pk('{"type": "message_delta", "content": "hi"}', 1, m),
    pk('{"type": "stop", "stop_reason": null}', 1, m),
  ];
  it.each([1e9, -1, 2])('model_index %s in a packet of a two-model stream', (bad) => {
    const f = fold([ids, ...answer(0), pk('{"type": "message_delta", "content": "x"}', 1, bad), ...answer(1)], {
      modelNames: ['a', 'b'],
    });
    expect(f.decode_errors).toBe(1);
    expect(f.models).toHaveLength(2);
    expect(f.outcome).toBe('invalid_response');
    expect(f.error_message).toContain(
      `message_delta: placement.model_index: ${bad} is not a model of this request (2 asked)`,
    );
  });
  it("in a streaming error's details, and in a single-model stream", () => {
    const error = (i: number) =>
      `{"error": "boom", "stack_trace": null, "error_code": "MODEL_ERROR", "is_retryable": true, "details": {"model": "m", "provider": "p", "model_index": ${i}}}`;
    const multi = fold([ids, ...answer(0), error(7), ...answer(1)], { modelNames: ['a', 'b'] });
    expect(multi).toMatchObject({ decode_errors: 1, outcome: 'invalid_response' });
    expect(multi.error_message).toContain('streaming error: details.model_index: 7');
    const single = fold([
      '{"user_message_id": 1, "reserved_assistant_message_id": 2}',
      pk('{"type": "message_delta", "content": "x"}', 1, 1),
      ...answer(0),
    ]);
    expect(single).toMatchObject({ decode_errors: 1, outcome: 'invalid_response', models: null });
  });
  it('a known part with a field of the wrong type names the part and the field', () => {
    const f = fold([
      '{"user_message_id": 1, "reserved_assistant_message_id": 2}',
      pk('{"type": "citation_info", "citation_number": "one", "document_id": "a"}'),
      ...answer(0),
    ]);
    expect(f.outcome).toBe('invalid_response');
    expect(f.error_message).toBe(
      'a part could not be decoded: citation_info: obj.citation_number: expected number, received string',
    );
  });
});

describe('what counts as an answer', () => {
  it('stop with no answer text is empty_answer, not ok', () => {
    const f = fold([
      '{"user_message_id": 1, "reserved_assistant_message_id": 2}',
      pk('{"type": "message_start", "final_documents": null}'),
      pk('{"type": "message_delta", "content": ""}'),
      pk('{"type": "stop", "stop_reason": null}'),
    ]);
    expect(f).toMatchObject({
      outcome: 'empty_answer',
      answer: null,
      error_message: 'the answer reached stop with no answer text',
    });
  });
  it('one empty model makes a multi-model request empty_answer; the other stays ok', () => {
    const ids =
      '{"user_message_id": 1, "responses": [{"message_id": 2, "model_name": "a"}, {"message_id": 3, "model_name": "b"}]}';
    const f = fold(
      [
        ids,
        pk('{"type": "message_delta", "content": "yes"}', 1, 0),
        pk('{"type": "stop", "stop_reason": null}', 1, 0),
        pk('{"type": "stop", "stop_reason": null}', 1, 1),
      ],
      { modelNames: ['a', 'b'] },
    );
    expect(f.models?.map((m) => m.outcome)).toEqual(['ok', 'empty_answer']);
    expect(f.outcome).toBe('empty_answer');
  });
  it('a tool error packet is counted and the answer goes on', () => {
    const f = fold([
      '{"user_message_id": 1, "reserved_assistant_message_id": 2}',
      pk('{"type": "search_tool_start", "is_internet_search": false}', 0),
      pk('{"type": "error"}', 0),
      pk('{"type": "section_end"}', 0),
      pk('{"type": "message_delta", "content": "From memory."}'),
      pk('{"type": "stop", "stop_reason": null}'),
    ]);
    expect(f).toMatchObject({ outcome: 'ok', tool_errors: 1, answer: 'From memory.' });
  });
  it('keeps the is_retryable of the streaming error that decided the outcome', () => {
    const refusal =
      '{"error": "declined", "stack_trace": null, "error_code": "MODEL_REFUSAL", "is_retryable": false, "details": {"model": "m", "provider": "p", "model_index": 0, "tool_choice": "auto", "finish_reason": "content_filter"}}';
    expect(fold(['{"user_message_id": 1, "reserved_assistant_message_id": 2}', refusal])).toMatchObject({
      outcome: 'stream_error',
      error_code: 'MODEL_REFUSAL',
      error_retryable: false,
    });
  });
});

describe('citations as the service numbers them', () => {
  const start = pk(
    `{"type": "message_start", "final_documents": [${DOC('a', 'https://x/a')}, ${DOC('b', 'https://x/b')}]}`,
  );
  const lines = (text: string, infos: string[]) => [
    '{"user_message_id": 1, "reserved_assistant_message_id": 2}',
    start,
    ...infos,
    pk(`{"type": "message_delta", "content": ${JSON.stringify(text)}}`),
    pk('{"type": "stop", "stop_reason": null}'),
  ];
  const info = (n: number, id: string) =>
    pk(`{"type": "citation_info", "citation_number": ${n}, "document_id": "${id}"}`);

  it('a renumbered marker (a second search starts at 101) with the link of a given document cites it', () => {
    const f = fold(
      lines('A [[1]](https://x/a). B [[101]](https://x/b). A again [[102]](https://x/a).', [info(1, 'a')]),
    );
    expect(f.markers_without_citation).toEqual([]);
    expect(f.marker_citations).toEqual([
      { citation_number: 101, document_id: 'b' },
      { citation_number: 102, document_id: 'a' },
    ]);
    expect(f.cited_document_ids).toEqual(['a', 'b']);
  });
  it('only a marker that matches neither a citation_info nor a given link is invalid', () => {
    const f = fold(lines('A [[1]](https://x/a). Z [[7]](https://elsewhere/z).', [info(1, 'a')]));
    expect(f.markers_without_citation).toEqual([7]);
    expect(f.marker_citations).toEqual([]);
  });
  it('R is in citation-number order, even when the first citation had the higher number', () => {
    const f = fold(lines('B first [[2]](https://x/b), then A [[1]](https://x/a).', [info(2, 'b'), info(1, 'a')]));
    expect(f.citations.map((c) => c.document_id)).toEqual(['b', 'a']);
    expect(f.cited_document_ids).toEqual(['a', 'b']);
  });
});

describe('figures of the answer', () => {
  it('pre_answer_processing_seconds, TPOT and output characters per second', () => {
    const decoder = createStreamDecoder();
    const collector = createCollector({ sent: 0 });
    const feed = (t: number, line: string) =>
      decoder.push(new TextEncoder().encode(`${line}\n`)).forEach((p) => collector.onPart(p, t));
    feed(1, '{"user_message_id": 1, "reserved_assistant_message_id": 2}');
    feed(100, pk('{"type": "message_start", "final_documents": null, "pre_answer_processing_seconds": 0.09}'));
    feed(100, pk('{"type": "message_delta", "content": "abc"}'));
    feed(300, pk('{"type": "message_delta", "content": "defgh"}'));
    feed(600, pk('{"type": "message_delta", "content": "ij"}'));
    feed(601, pk('{"type": "stop", "stop_reason": null}'));
    const f = collector.finish(602);
    expect(f).toMatchObject({ pre_answer_processing_seconds: 0.09, time_per_delta_ms: 250, answer_chars: 10 });
    expect(f.output_chars_per_s).toBeCloseTo(7 / 0.5, 6); // 7 characters after the first delta over 500 ms
  });
  it('caps the answer kept at maxAnswerBytes, at a character boundary, and still counts all of it', () => {
    const f = fold(
      [
        '{"user_message_id": 1, "reserved_assistant_message_id": 2}',
        pk('{"type": "message_delta", "content": "abcd"}'),
        pk('{"type": "message_delta", "content": "\\u00e9\\u00e9\\u00e9"}'),
        pk('{"type": "stop", "stop_reason": null}'),
      ],
      { maxAnswerBytes: 7 },
    );
    expect(f).toMatchObject({
      outcome: 'ok',
      answer: 'abcdé',
      answer_truncated: true,
      answer_chars: 7,
      answer_deltas: 2,
    });
  });
  it('fills the cap exactly: the UTF-8 bytes of each delta are counted, not an upper bound of them', () => {
    const deltas = Array.from({ length: 11 }, (_, i) => `${String(i).padStart(2, '0')}${'x'.repeat(8)}`);
    const f = fold(
      [
        '{"user_message_id": 1, "reserved_assistant_message_id": 2}',
        ...deltas.map((d) => pk(`{"type": "message_delta", "content": "${d}"}`)),
        pk('{"type": "stop", "stop_reason": null}'),
      ],
      { maxAnswerBytes: 100 },
    );
    // Ten 10-byte deltas fit a 100-byte cap; the eleventh does not (3 bytes a character counted before: 40 kept).
    expect(f).toMatchObject({ answer: deltas.slice(0, 10).join(''), answer_truncated: true, answer_chars: 110 });
  });
  it('keeps the same answer whatever the pace: deltas close together, far apart, and both in turn', () => {
    const pieces = Array.from({ length: 120 }, (_, i) => ['ab ', 'é', '漢字', '😀', 'x'][i % 5]!);
    for (const pace of [() => 0.5, () => 50, (i: number) => (i % 7 < 3 ? 30 : 1)]) {
      const decoder = createStreamDecoder();
      const collector = createCollector({ sent: 0, maxAnswerBytes: 200 });
      const feed = (t: number, line: string) =>
        decoder.push(new TextEncoder().encode(`${line}\n`)).forEach((p) => collector.onPart(p, t));
      feed(1, '{"user_message_id": 1, "reserved_assistant_message_id": 2}');
      let t = 1;
      pieces.forEach((p, i) => feed((t += pace(i)), pk(`{"type": "message_delta", "content": ${JSON.stringify(p)}}`)));
      feed(t + 1, pk('{"type": "stop", "stop_reason": null}'));
      const f = collector.finish(t + 2);
      // The cap cuts the same characters however the deltas came.
      let kept = '';
      for (const ch of pieces.join('')) {
        if (Buffer.byteLength(kept + ch) > 200) break;
        kept += ch;
      }
      expect(f).toMatchObject({ answer: kept, answer_truncated: true, answer_deltas: 120 });
    }
  });
  it('cuts a delta that mixes ASCII and wider characters at the character the cap falls in', () => {
    const f = fold(
      [
        '{"user_message_id": 1, "reserved_assistant_message_id": 2}',
        pk('{"type": "message_delta", "content": "ab\\u00e9\\u6f22z"}'),
        pk('{"type": "stop", "stop_reason": null}'),
      ],
      { maxAnswerBytes: 6 },
    );
    expect(f).toMatchObject({ answer: 'abé', answer_truncated: true, answer_chars: 5 });
  });
  it('keeps a long answer of every width whole, and every gap', () => {
    const pieces = Array.from({ length: 300 }, (_, i) => ['ab', 'é', '漢字', '😀', ' '][i % 5]!);
    const f = fold([
      '{"user_message_id": 1, "reserved_assistant_message_id": 2}',
      ...pieces.map((p) => pk(`{"type": "message_delta", "content": ${JSON.stringify(p)}}`)),
      pk('{"type": "stop", "stop_reason": null}'),
    ]);
    expect(f.answer).toBe(pieces.join(''));
    expect(f).toMatchObject({ answer_truncated: false, answer_deltas: 300 });
    expect(f.answer_gaps_ms).toEqual(Array.from({ length: 299 }, () => 1));
  });
  it('deep-research packets are known: the plan and the reports are not the answer', () => {
    const f = fold([
      '{"user_message_id": 1, "reserved_assistant_message_id": 2}',
      pk('{"type": "deep_research_plan_start"}', 0),
      pk('{"type": "deep_research_plan_delta", "content": "1. Search"}', 0),
      pk('{"type": "top_level_branching", "num_parallel_branches": 2}', 1),
      pk('{"type": "research_agent_start", "research_task": "t"}', 1),
      pk('{"type": "intermediate_report_start"}', 1),
      pk('{"type": "intermediate_report_delta", "content": "found"}', 1),
      pk(`{"type": "intermediate_report_cited_docs", "cited_docs": [${DOC('a', 'https://x/a')}]}`, 1),
      pk('{"type": "section_end"}', 1),
      pk('{"type": "message_start", "final_documents": null}', 2),
      pk('{"type": "message_delta", "content": "Report [[3]](https://x/a)."}', 2),
      pk('{"type": "stop", "stop_reason": null}', 2),
    ]);
    expect(f).toMatchObject({
      outcome: 'ok',
      unknown_parts: 0,
      answer: 'Report [[3]](https://x/a).',
      marker_citations: [{ citation_number: 3, document_id: 'a' }],
      markers_without_citation: [],
    });
  });
});
