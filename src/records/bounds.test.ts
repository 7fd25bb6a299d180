import { describe, expect, it } from 'vitest';
import { boundRecord, cutText, CUT_MARKER, RECORD_BOUNDS } from './bounds.js';
import { RequestRecordSchema } from './record.js';
import { toValidRecord } from './valid-record.js';
import type { RequestRecord } from './record.js';

const base = (): RequestRecord =>
  ({
    outcome: 'ok',
    error_code: null,
    error_message: null,
    ttfp_ms: null,
    ttft_ms: null,
    first_citation_ms: null,
    total_ms: 10,
    time_per_delta_ms: null,
    first_packet_ms: {},
    answer_gaps_ms: [],
    parts: 0,
    answer_deltas: 0,
    answer_chars: 0,
    answer: null,
    answer_truncated: false,
    citations: [],
    marker_citations: [],
    cited_document_ids: [],
    top_document_ids: [],
    top_documents: [],
    markers_without_citation: [],
    reasoning_chars: 0,
    tool_errors: 0,
    pre_answer_processing_seconds: null,
    output_chars_per_s: null,
    tools_used: [],
    answered_models: null,
    chat_session_id: null,
    message_id: null,
    unknown_parts: 0,
    decode_errors: 0,
    record_version: 1,
    key: 'q1|s|stream|0',
    question_id: 'q1',
    conversation: null,
    turn: null,
    session: null,
    question: 'what?',
    category: null,
    set: 's',
    mode: 'stream',
    repeat: 0,
    expected_document_ids: [],
    metadata: {},
    reference_answer: null,
    rubric: null,
    human_verdict: null,
    started_at: new Date(0).toISOString(),
    sent_offset_ms: 0,
    scheduled_offset_ms: null,
    queue_ms: null,
    response_ms: null,
    headers_ms: 1,
    http_status: 200,
    content_type: 'application/json',
    rate_limit: null,
    token_index: null,
    attempts: [],
    scores: null,
    judge: null,
    checks: {},
    models: null,
  }) as RequestRecord;

describe('boundRecord (issue 23)', () => {
  it('a record within its bounds is returned as it is', () => {
    const record = base();
    expect(boundRecord(record)).toBe(record);
    expect(RequestRecordSchema.safeParse(record).success).toBe(true);
  });

  it('cuts a 3 MB id, a 50 MB reason, invented packet types and endless lists; the line stays bounded and valid', () => {
    const huge = 'x'.repeat(3_000_000);
    const record = base();
    record.chat_session_id = huge;
    record.tools_used = [huge, 'search'];
    record.citations = Array.from({ length: 5_000 }, (_, i) => ({ citation_number: i, document_id: huge }));
    record.cited_document_ids = Array.from({ length: 5_000 }, () => huge);
    record.first_packet_ms = Object.fromEntries(
      Array.from({ length: 10_000 }, (_, i) => [`type_${i}_${'y'.repeat(1_000)}`, i]),
    );
    record.answer_gaps_ms = Array.from({ length: 100_000 }, () => 1);
    record.checks = { mine: { score: 1, reason: 'r'.repeat(50_000_000), error: null } };
    record.judge = {
      model: 'm',
      prompt_version: '1',
      verdicts: {
        correctness: { status: 'ok', score: 1, reason: 'z'.repeat(50_000_000), error: null, asks: [1], cached: 0 },
      },
    };
    const bounded = boundRecord(record);
    expect(bounded.chat_session_id).toHaveLength(RECORD_BOUNDS.idChars);
    expect(bounded.chat_session_id?.endsWith(CUT_MARKER)).toBe(true);
    expect(bounded.citations).toHaveLength(RECORD_BOUNDS.listItems);
    expect(Object.keys(bounded.first_packet_ms)).toHaveLength(RECORD_BOUNDS.packetTypes);
    expect(bounded.first_packet_others).toBe(10_000 - RECORD_BOUNDS.packetTypes);
    expect(bounded.answer_gaps_ms).toHaveLength(RECORD_BOUNDS.gaps);
    expect(bounded.judge?.verdicts.correctness?.reason).toHaveLength(RECORD_BOUNDS.messageChars);
    expect(bounded.checks['mine']?.reason).toHaveLength(RECORD_BOUNDS.messageChars);
    expect(RequestRecordSchema.safeParse(bounded).success).toBe(true);
    expect(toValidRecord(record).outcome).toBe('ok');
    expect(JSON.stringify(bounded).length).toBeLessThan(2_000_000);
  });

  it('the schema refuses what is over a bound', () => {
    const record = { ...base(), chat_session_id: 'x'.repeat(RECORD_BOUNDS.idChars + 1) };
    expect(RequestRecordSchema.safeParse(record).success).toBe(false);
    const types = {
      ...base(),
      first_packet_ms: Object.fromEntries(
        Array.from({ length: RECORD_BOUNDS.packetTypes + 1 }, (_, i) => [`t${i}`, i]),
      ),
    };
    expect(RequestRecordSchema.safeParse(types).success).toBe(false);
  });

  it('cutText keeps short text and marks a cut', () => {
    expect(cutText('short', 10)).toBe('short');
    expect(cutText('a'.repeat(20), 10)).toBe(`aaaa${CUT_MARKER}`);
  });
});
