import { describe, expect, it } from 'vitest';
import { dumps, dumpsResponse, floatRepr, pyFloat, type PyJson } from './json.js';
import { framePart, frameUnterminated } from './frame.js';

const placement = (turn: number) => ({ turn_index: turn, tab_index: 0, sub_turn_index: null, model_index: 0 });
const packet = (turn: number, obj: Record<string, PyJson>): PyJson => ({ placement: placement(turn), obj });

describe('dumps matches the example lines of docs/reference/wire-format.md byte for byte', () => {
  it.each([
    [
      { chat_session_id: '6f1c2d3e-1111-4a2b-9c3d-0123456789ab', incognito: false },
      '{"chat_session_id": "6f1c2d3e-1111-4a2b-9c3d-0123456789ab", "incognito": false}',
    ],
    [
      { user_message_id: 101, reserved_assistant_message_id: 102 },
      '{"user_message_id": 101, "reserved_assistant_message_id": 102}',
    ],
    [
      packet(0, { type: 'search_tool_start', is_internet_search: false }),
      '{"placement": {"turn_index": 0, "tab_index": 0, "sub_turn_index": null, "model_index": 0}, "obj": {"type": "search_tool_start", "is_internet_search": false}}',
    ],
    [
      packet(0, { type: 'search_tool_queries_delta', queries: ['deployment options'] }),
      '{"placement": {"turn_index": 0, "tab_index": 0, "sub_turn_index": null, "model_index": 0}, "obj": {"type": "search_tool_queries_delta", "queries": ["deployment options"]}}',
    ],
    [
      packet(0, { type: 'section_end' }),
      '{"placement": {"turn_index": 0, "tab_index": 0, "sub_turn_index": null, "model_index": 0}, "obj": {"type": "section_end"}}',
    ],
    [
      packet(1, { type: 'message_start', final_documents: [], pre_answer_processing_seconds: pyFloat(2.41) }),
      '{"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null, "model_index": 0}, "obj": {"type": "message_start", "final_documents": [], "pre_answer_processing_seconds": 2.41}}',
    ],
    [
      packet(1, { type: 'message_delta', content: 'It can be deployed with Docker Compose or Kubernetes' }),
      '{"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null, "model_index": 0}, "obj": {"type": "message_delta", "content": "It can be deployed with Docker Compose or Kubernetes"}}',
    ],
    [
      packet(1, { type: 'citation_info', citation_number: 1, document_id: 'doc-deploy-overview' }),
      '{"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null, "model_index": 0}, "obj": {"type": "citation_info", "citation_number": 1, "document_id": "doc-deploy-overview"}}',
    ],
    [
      packet(1, { type: 'message_delta', content: ' [[1]](https://docs.example.com/deploy)' }),
      '{"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null, "model_index": 0}, "obj": {"type": "message_delta", "content": " [[1]](https://docs.example.com/deploy)"}}',
    ],
    [
      packet(1, { type: 'stop', stop_reason: null }),
      '{"placement": {"turn_index": 1, "tab_index": 0, "sub_turn_index": null, "model_index": 0}, "obj": {"type": "stop", "stop_reason": null}}',
    ],
  ])('%#', (part, line) => expect(dumps(part)).toBe(line));
});

describe('dumps escapes like Python ensure_ascii (vectors printed by python3 json.dumps)', () => {
  it('non-ASCII, astral, DEL, control characters, quotes and backslashes', () => {
    expect(dumps({ a: 'é中😀\x7f\n\t\u2028' })).toBe('{"a": "\\u00e9\\u4e2d\\ud83d\\ude00\\u007f\\n\\t\\u2028"}');
    expect(dumps('say "hi" \\ \x01 /')).toBe('"say \\"hi\\" \\\\ \\u0001 /"');
    expect(dumps({ clé: [], e: {} })).toBe('{"cl\\u00e9": [], "e": {}}');
  });
  it('skips undefined values and keeps insertion order', () => {
    expect(dumps({ type: 'x', gone: undefined, a: 1 })).toBe('{"type": "x", "a": 1}');
  });
});

describe('floats print as Python repr', () => {
  it.each([
    [2, '2.0'],
    [1e-5, '1e-05'],
    [1e16, '1e+16'],
    [0.1, '0.1'],
    [123456789.123, '123456789.123'],
    [-0, '-0.0'],
    [1.5e300, '1.5e+300'],
    [2.41, '2.41'],
    [1e-4, '0.0001'],
    [12345678901234568, '1.2345678901234568e+16'],
    [-3.25, '-3.25'],
    [0.000123, '0.000123'],
    [1234.5, '1234.5'],
    [Number.NaN, 'NaN'],
  ])('%s → %s', (value, repr) => expect(floatRepr(value)).toBe(repr));
  it('unmarked integral numbers are ints, marked ones floats', () => {
    expect(dumps([1, 2.5, pyFloat(3)])).toBe('[1, 2.5, 3.0]');
  });
});

describe('dumpsResponse is Starlette JSONResponse: compact, UTF-8 unescaped', () => {
  it('writes the 400 body of docs/reference/wire-format.md', () => {
    expect(
      dumpsResponse({
        error_code: 'INVALID_INPUT',
        detail: 'Multi-model mode (llm_overrides with >1 entry) requires stream=True.',
      }),
    ).toBe(
      '{"error_code":"INVALID_INPUT","detail":"Multi-model mode (llm_overrides with >1 entry) requires stream=True."}',
    );
    expect(dumpsResponse({ a: ['é', pyFloat(1)], b: null })).toBe('{"a":["é",1.0],"b":null}');
  });
});

describe('framing', () => {
  it('ndjson lines end with a newline; sse events with a blank line; unterminated ends with neither', () => {
    expect(framePart({ a: 1 }, 'ndjson')).toBe('{"a": 1}\n');
    expect(framePart({ a: 1 }, 'sse')).toBe('data: {"a": 1}\n\n');
    expect(frameUnterminated({ error: 'x' }, 'ndjson')).toBe('{"error": "x"}');
    expect(frameUnterminated({ error: 'x' }, 'sse')).toBe('data: {"error": "x"}');
  });
});
