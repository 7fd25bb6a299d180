import { describe, expect, it } from 'vitest';
import { classifyPart, KNOWN_PACKET_TYPES } from './stream.js';

const placement = { turn_index: 1, tab_index: 0, sub_turn_index: null, model_index: 0 };
const packet = (obj: object, where: object = placement) => ({ placement: where, obj });

describe('classifyPart: the part kinds of docs/reference/wire-format.md', () => {
  it.each([
    { kind: 'session_created', value: { chat_session_id: '6f1c2d3e-1111-4a2b-9c3d-0123456789ab', incognito: false } },
    { kind: 'message_ids', value: { user_message_id: 101, reserved_assistant_message_id: 102 } },
    {
      kind: 'multi_model_ids',
      value: { user_message_id: 201, responses: [{ message_id: 202, model_name: 'gpt-4o' }] },
    },
    {
      kind: 'streaming_error',
      value: {
        error: 'boom',
        stack_trace: null,
        error_code: 'RATE_LIMIT',
        is_retryable: true,
        details: { model_index: 1 },
      },
    },
    { kind: 'streaming_error', value: { error: 'the deployed service may send only this' } },
    { kind: 'packet', value: packet({ type: 'message_delta', content: 'It can' }) },
    { kind: 'packet', value: packet({ type: 'chat_heartbeat' }, { ...placement, model_index: null }) },
    { kind: 'packet', value: packet({ type: 'deep_research_plan_delta', content: 'Plan: ' }) },
    { kind: 'packet', value: packet({ type: 'future_packet_type', plan: ['a'] }) }, // unknown type: kept
    // every release: no model_index before v3.1, null in v3.1; no incognito before v4.6
    {
      kind: 'packet',
      value: packet({ type: 'message_delta', content: 'x' }, { turn_index: 1, tab_index: 0, sub_turn_index: null }),
    },
    { kind: 'packet', value: packet({ type: 'message_delta', content: 'x' }, { ...placement, model_index: null }) },
  ])('$kind: $value', ({ kind, value }) => {
    expect(classifyPart(value, 'line')).toEqual({ kind, part: value });
  });
});

describe('classifyPart: decode errors name the wrong field', () => {
  const doc = {
    document_id: 'd',
    chunk_ind: 'zero',
    semantic_identifier: 's',
    blurb: 'b',
    source_type: 'web',
    boost: 0,
    hidden: false,
    metadata: {},
    match_highlights: [],
  };
  it.each([
    {
      value: packet({ type: 'message_delta', content: 7 }),
      reason: 'message_delta: obj.content: expected string, received number',
    },
    {
      value: packet({ type: 'message_delta' }),
      reason: 'message_delta: obj.content: expected string, received undefined',
    },
    {
      value: packet({ type: 'stop', stop_reason: 5 }),
      reason: 'stop: obj.stop_reason: expected string, received number',
    },
    {
      value: packet({ type: 'citation_info', citation_number: 1.5, document_id: 'd' }),
      reason: 'citation_info: obj.citation_number: expected int, received number',
    },
    {
      value: packet({ type: 'search_tool_documents_delta', documents: [doc] }),
      reason: 'search_tool_documents_delta: obj.documents[0].chunk_ind: expected number, received string',
    },
    {
      value: packet({ type: 'message_delta', content: 'x' }, { model_index: 0 }),
      reason: 'message_delta: placement.turn_index: expected number, received undefined',
    },
    { value: packet({ content: 'no type' }), reason: 'packet: obj.type: expected string, received undefined' },
    {
      value: packet({ type: 'future_type' }, { turn_index: 'x' }),
      reason: 'packet: placement.turn_index: expected number, received string',
    },
    { value: { error: 42 }, reason: 'streaming_error: error: expected string, received number' },
    {
      value: { user_message_id: 1, reserved_assistant_message_id: null },
      reason: 'message_ids: reserved_assistant_message_id: expected number, received null',
    },
  ])('$reason', ({ value, reason }) => {
    expect(classifyPart(value, 'the line')).toEqual({ kind: 'decode_error', reason, line: 'the line' });
  });

  it('names the first three problems and counts the rest', () => {
    const part = classifyPart(packet({ type: 'search_tool_documents_delta', documents: [{}] }), '');
    expect(part.kind === 'decode_error' && part.reason).toMatch(
      /^search_tool_documents_delta: obj\.documents\[0\]\.document_id: expected string, received undefined; .+; .+; and 6 more$/,
    );
  });

  it.each([
    { value: null, reason: 'a part must be a JSON object' },
    { value: [1], reason: 'a part must be a JSON object' },
    { value: 'text', reason: 'a part must be a JSON object' },
    { value: { hello: 'world' }, reason: 'a JSON object of no known part shape' },
  ])('$reason: $value', ({ value, reason }) => {
    expect(classifyPart(value, 'l')).toEqual({ kind: 'decode_error', reason, line: 'l' });
  });

  it('knows the packet types the toolkit reads (docs/reference/wire-format.md)', () => {
    for (const type of [
      'message_start',
      'message_delta',
      'citation_info',
      'stop',
      'section_end',
      'chat_heartbeat',
      'error',
      'reasoning_delta',
    ]) {
      expect(KNOWN_PACKET_TYPES.has(type)).toBe(true);
    }
    expect(KNOWN_PACKET_TYPES.has('future_packet_type')).toBe(false);
  });

  it('knows every packet type of the newest listed release and of the next runtime (be8920ec), so unknown_parts counts only newer ones', () => {
    const v4_6 = [
      'section_end',
      'stop',
      'top_level_branching',
      'error',
      'chat_heartbeat',
      'message_start',
      'message_delta',
      'search_tool_start',
      'search_tool_queries_delta',
      'search_tool_filter_delta',
      'search_tool_documents_delta',
      'open_url_start',
      'open_url_urls',
      'open_url_documents',
      'image_generation_start',
      'image_generation_heartbeat',
      'image_generation_final',
      'python_tool_start',
      'python_tool_delta',
      'custom_tool_start',
      'custom_tool_args',
      'custom_tool_delta',
      'file_reader_start',
      'file_reader_result',
      'reasoning_start',
      'reasoning_delta',
      'reasoning_done',
      'citation_info',
      'tool_call_debug',
      'tool_call_argument_delta',
      'memory_tool_start',
      'memory_tool_delta',
      'memory_tool_no_access',
      'deep_research_plan_start',
      'deep_research_plan_delta',
      'research_agent_start',
      'intermediate_report_start',
      'intermediate_report_delta',
      'intermediate_report_cited_docs',
      'coding_agent_start',
      'coding_agent_thinking_delta',
      'coding_agent_final',
      'bash_tool_start',
      'bash_tool_delta',
    ];
    // v4.7/v4.8 send what v4.6 sends; upstream be8920ec adds answer_metadata and pydantic_ai.
    expect([...KNOWN_PACKET_TYPES].sort()).toEqual([...v4_6, 'answer_metadata', 'pydantic_ai'].sort());
  });

  it('reads a session line without incognito (before v4.6) as incognito false', () => {
    expect(classifyPart({ chat_session_id: 's' }, '')).toEqual({
      kind: 'session_created',
      part: { chat_session_id: 's', incognito: false },
    });
  });
});
