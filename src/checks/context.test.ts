import { describe, expect, it } from 'vitest';
import { checkContext, type CheckedAnswer, type CheckedRecord } from './context.js';

const record: CheckedRecord = {
  question_id: 'q77',
  question: 'How many of those can I carry over?',
  category: 'hr',
  metadata: {},
  set: 's',
  mode: 'stream',
  repeat: 0,
  expected_document_ids: [],
  http_status: 200,
  headers_ms: 1,
};
const answer: CheckedAnswer = {
  outcome: 'ok',
  error_code: null,
  answer: 'Five [[1]]().',
  citations: [],
  cited_document_ids: [],
  top_documents: [],
  ttfp_ms: 2,
  ttft_ms: 3,
  first_citation_ms: null,
  total_ms: 40,
  time_per_delta_ms: null,
  scores: null,
};
const expectations = { expected_document_ids: [], must_contain: [], must_not_contain: [], expect_no_answer: false };

describe('checkContext', () => {
  it('gives a check the turn of its conversation, the tools expected and the tools the answer used', () => {
    const ctx = checkContext(
      { ...record, conversation: 'pto', turn: 2 },
      { ...answer, tools_used: ['internal_search', 'web_search'] },
      { ...expectations, expected_tools: ['internal_search'] },
      null,
    );
    expect(ctx.row).toMatchObject({ id: 'q77', conversation: 'pto', turn: 2, expected_tools: ['internal_search'] });
    expect(ctx.tools_used).toEqual(['internal_search', 'web_search']);
  });
  it('a question on its own has no conversation, and an answer without tools an empty list', () => {
    const ctx = checkContext(record, answer, expectations, null);
    expect(ctx.row).toMatchObject({ conversation: null, turn: null, expected_tools: [] });
    expect(ctx.tools_used).toEqual([]);
  });
  it('time_per_delta_ms is also read under its old name tpot_ms (a check written before issue 27 §6)', () => {
    const ctx = checkContext(record, { ...answer, time_per_delta_ms: 12.5 }, expectations, null);
    expect(ctx.timings).toMatchObject({ time_per_delta_ms: 12.5, tpot_ms: 12.5 });
  });
});
