import { describe, expect, it } from 'vitest';
import { classifyPart } from '../../api/index.js';
import { decodeText, excerptOfText } from './decode-part.js';

const placement = { turn_index: 1, tab_index: 0, sub_turn_index: null, model_index: 0 };
const doc = {
  document_id: 'hr-pto-policy',
  chunk_ind: 0,
  semantic_identifier: 'Paid time off policy',
  link: 'https://wiki.example/pto',
  blurb: 'Every employee',
  source_type: 'confluence',
  boost: 0,
  hidden: false,
  metadata: { department: 'hr', tags: ['a', 'b'] },
  score: 92.3,
  is_relevant: null,
  relevance_explanation: null,
  match_highlights: ['<hi>Request</hi> PTO'],
  updated_at: '2025-06-03T16:20:00Z',
  primary_owners: ['m@example'],
  secondary_owners: null,
  is_internet: false,
  file_id: null,
};
const packet = (obj: Record<string, unknown>, p: Record<string, unknown> = placement) =>
  JSON.stringify({ placement: p, obj });

/** What the schemas alone make of a line (the decoder's path before its hand-checked fast path). */
function bySchema(text: string) {
  const part = classifyPart(JSON.parse(text), '');
  return part.kind === 'decode_error' ? { kind: 'decode_error', reason: part.reason, line: excerptOfText(text) } : part;
}

describe('decodeText: the hand-checked packets decode exactly as the schemas do', () => {
  const lines = [
    packet({ type: 'message_delta', content: 'It can be deployed' }),
    packet({ type: 'message_delta', content: '' }, { turn_index: 0 }),
    packet({ type: 'citation_info', citation_number: 1, document_id: 'doc-a', extra: [1] }),
    packet({ type: 'reasoning_delta', reasoning: 'thinking' }),
    packet({ type: 'reasoning_start' }),
    packet({ type: 'reasoning_done' }),
    packet({ type: 'section_end' }),
    packet({ type: 'chat_heartbeat' }, { turn_index: 0, tab_index: null, sub_turn_index: null, model_index: null }),
    packet({ type: 'stop', stop_reason: 'finished' }),
    packet({ type: 'stop' }),
    // Wrong fields: the schemas word the error.
    packet({ type: 'message_delta', content: 3 }),
    packet({ type: 'message_delta' }),
    packet({ type: 'citation_info', citation_number: 1.5, document_id: 'doc-a' }),
    packet({ type: 'citation_info', citation_number: 1, document_id: null }),
    packet({ type: 'reasoning_delta', reasoning: null }),
    packet({ type: 'stop', stop_reason: 7 }),
    packet({ type: 'message_delta', content: 'x' }, { turn_index: 'one' }),
    packet({ type: 'message_delta', content: 'x' }, { turn_index: 0, model_index: 0.5 }),
    packet({ type: 'message_delta', content: 'x' }, {}),
    JSON.stringify({ placement: [], obj: { type: 'section_end' } }),
    JSON.stringify({ placement, obj: [] }),
    JSON.stringify({ placement: null, obj: { type: 'section_end' } }),
    packet({ type: 'message_start', final_documents: null }),
    packet({
      type: 'message_start',
      final_documents: [doc, { ...doc, document_id: 'b', link: null }],
      pre_answer_processing_seconds: 2.41,
    }),
    packet({ type: 'message_start' }),
    packet({ type: 'search_tool_documents_delta', documents: [doc] }),
    packet({ type: 'search_tool_documents_delta', documents: [] }),
    packet({ type: 'search_tool_documents_delta', documents: [{ ...doc, extra_field: 1 }] }),
    // Documents the schemas must see: a default to add, or a wrong field to word.
    packet({ type: 'search_tool_documents_delta', documents: [{ ...doc, is_internet: undefined }] }),
    packet({ type: 'search_tool_documents_delta', documents: [{ ...doc, source_type: 'Confluence' }] }),
    packet({ type: 'search_tool_documents_delta', documents: [{ ...doc, metadata: { n: 1 } }] }),
    packet({ type: 'search_tool_documents_delta', documents: [{ ...doc, metadata: [] }] }),
    packet({ type: 'search_tool_documents_delta', documents: [{ ...doc, chunk_ind: 0.5 }] }),
    packet({ type: 'search_tool_documents_delta', documents: [{ ...doc, match_highlights: undefined }] }),
    packet({ type: 'search_tool_documents_delta', documents: [{ ...doc, primary_owners: [1] }] }),
    packet({ type: 'search_tool_documents_delta', documents: [{ ...doc, score: 'high' }] }),
    packet({ type: 'search_tool_documents_delta', documents: null }),
    packet({ type: 'message_start', final_documents: [doc], pre_answer_processing_seconds: 'soon' }),
    // The opening packets of a search (issue 24: by hand too).
    packet({ type: 'search_tool_start', is_internet_search: false }),
    packet({ type: 'search_tool_start' }),
    packet({ type: 'search_tool_start', is_internet_search: 'no' }),
    packet({ type: 'search_tool_queries_delta', queries: ['What is the vacation policy?'] }),
    packet({ type: 'search_tool_queries_delta', queries: [1] }),
    packet({ type: 'search_tool_queries_delta' }),
    packet({ type: 'search_tool_filter_delta', sources: [], time_filter_start: null, time_filter_end: null }),
    packet({ type: 'search_tool_filter_delta' }),
    packet({ type: 'search_tool_filter_delta', sources: [3] }),
    // The two lines that open every stream, by hand when nothing is defaulted or doubtful.
    JSON.stringify({ chat_session_id: '22e8efcc-dd3b-476f-a3ef-f32690f2eb96', incognito: false }),
    JSON.stringify({ chat_session_id: 'abc', incognito: 'no' }),
    JSON.stringify({ chat_session_id: 7, incognito: false }),
    JSON.stringify({ chat_session_id: 'abc', incognito: true, error: 'boom' }),
    JSON.stringify({ user_message_id: 1, reserved_assistant_message_id: 2 }),
    JSON.stringify({ user_message_id: null, reserved_assistant_message_id: 2, chat_session_id: 'abc' }),
    JSON.stringify({ reserved_assistant_message_id: 2 }),
    JSON.stringify({ user_message_id: 1.5, reserved_assistant_message_id: 2 }),
    JSON.stringify({ user_message_id: 1, reserved_assistant_message_id: '2' }),
    JSON.stringify({ user_message_id: 1, reserved_assistant_message_id: 2, responses: [] }),
    // Types left to the schemas.
    packet({ type: 'brand_new_type', x: 1 }),
    packet({ type: 7 }),
    JSON.stringify({ chat_session_id: 'abc' }),
    JSON.stringify({ error: 'boom', error_code: 'MODEL_ERROR' }),
  ];
  it.each(lines)('%s', (line) => {
    expect(decodeText(line)).toEqual(bySchema(line));
  });

  it('skips blank lines and words lines that are not JSON', () => {
    expect(decodeText('')).toBeUndefined();
    expect(decodeText('  \t')).toBeUndefined();
    expect(decodeText('{"a":')).toMatchObject({ kind: 'decode_error' });
    expect(decodeText(' {"chat_session_id":"x"}')).toMatchObject({ kind: 'session_created' });
  });
});
