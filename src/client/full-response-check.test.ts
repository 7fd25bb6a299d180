import { describe, expect, it } from 'vitest';
import { ChatFullResponseSchema } from '../api/documents.js';
import { emptyFigures, fullResponseFigures, isCheckedFullResponse } from './full-response.js';

const doc = {
  document_id: 'd1',
  chunk_ind: 0,
  semantic_identifier: 'Doc',
  link: 'https://d.example/1',
  blurb: 'b',
  source_type: 'confluence',
  boost: 0,
  hidden: false,
  metadata: { a: 'x', b: ['y'] },
  score: 1.5,
  is_relevant: null,
  relevance_explanation: null,
  match_highlights: [],
  updated_at: null,
  primary_owners: null,
  secondary_owners: null,
  is_internet: false,
  file_id: null,
};
const body = {
  answer: 'A [[1]](https://d.example/1)',
  answer_citationless: 'A',
  pre_answer_reasoning: null,
  tool_calls: [
    {
      tool_name: 'run_search',
      tool_arguments: { query: 'q' },
      tool_result: '',
      search_docs: [doc],
      generated_images: null,
      pre_reasoning: null,
    },
  ],
  top_documents: [doc],
  citation_info: [{ type: 'citation_info', citation_number: 1, document_id: 'd1' }],
  message_id: 2,
  chat_session_id: 's',
  incognito: false,
  error_msg: null,
};

describe('isCheckedFullResponse: accepts only what the schema outputs unchanged', () => {
  const variants: [string, unknown][] = [
    ['a whole answer', body],
    [
      'an image',
      {
        ...body,
        tool_calls: [
          { ...body.tool_calls[0], generated_images: [{ file_id: 'f', url: 'u', revised_prompt: 'p', shape: null }] },
        ],
      },
    ],
    ['an extra field', { ...body, extra: 1 }],
    ['no tool_calls (a default)', { ...body, tool_calls: undefined }],
    ['no incognito (a default)', { ...body, incognito: undefined }],
    ['a citation without type (a default)', { ...body, citation_info: [{ citation_number: 1, document_id: 'd1' }] }],
    ['a document without is_internet (a default)', { ...body, top_documents: [{ ...doc, is_internet: undefined }] }],
    ['a wrong message_id', { ...body, message_id: '2' }],
    ['a wrong tool_arguments', { ...body, tool_calls: [{ ...body.tool_calls[0], tool_arguments: [] }] }],
    ['a wrong image', { ...body, tool_calls: [{ ...body.tool_calls[0], generated_images: [{ file_id: 'f' }] }] }],
    ['a wrong error_msg', { ...body, error_msg: 3 }],
    ['no answer', { ...body, answer: undefined }],
    ['an array', [body]],
  ];
  it.each(variants)('%s', (_name, variant) => {
    const value: unknown = JSON.parse(JSON.stringify(variant));
    const parsed = ChatFullResponseSchema.safeParse(value);
    if (isCheckedFullResponse(value)) {
      expect(parsed.success).toBe(true);
      expect(parsed.data).toEqual(value);
    }
    expect(isCheckedFullResponse(value)).toBe(parsed.success && JSON.stringify(parsed.data) === JSON.stringify(value));
  });
});

describe('fullResponseFigures: keepDocuments', () => {
  it('false leaves top_documents empty and every other figure as it is', () => {
    const text = JSON.stringify(body);
    const kept = fullResponseFigures(text, 5);
    const without = fullResponseFigures(text, 5, undefined, false);
    expect(kept.top_documents.map((d) => d.document_id)).toEqual(['d1']);
    expect(without).toEqual({ ...kept, top_documents: [] });
    expect(without.top_document_ids).toEqual(['d1']);
  });
});

describe('fullResponseFigures: the figures object', () => {
  it('has every key of emptyFigures in its order, as the failures do (results.jsonl keeps that order)', () => {
    const keys = Object.keys(emptyFigures(1));
    expect(Object.keys(fullResponseFigures(JSON.stringify(body), 5))).toEqual(keys);
    expect(Object.keys(fullResponseFigures('not json', 5))).toEqual(keys);
  });
  it('names each tool once, canonically, in order of first call; links resolve a marker without citation_info', () => {
    const calls = [
      { ...body.tool_calls[0], tool_name: 'run_search' },
      {
        ...body.tool_calls[0],
        tool_name: 'web_search',
        search_docs: [{ ...doc, document_id: 'd2', link: ' https://d.example/2 ' }],
      },
      { ...body.tool_calls[0], tool_name: 'internal_search', search_docs: null },
    ];
    const figures = fullResponseFigures(
      JSON.stringify({
        ...body,
        answer: 'A [[1]](https://d.example/1) B [[101]](https://d.example/2) C [[7]]',
        tool_calls: calls,
      }),
      5,
    );
    expect(figures.tools_used).toEqual(['internal_search', 'web_search']);
    expect(figures.marker_citations).toEqual([{ citation_number: 101, document_id: 'd2' }]);
    expect(figures.markers_without_citation).toEqual([7]);
    expect(figures.cited_document_ids).toEqual(['d1', 'd2']);
  });
});
