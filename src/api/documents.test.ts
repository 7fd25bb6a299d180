import { describe, expect, it } from 'vitest';
import { DocumentSourceSchema } from './common.js';
import { ChatFullResponseSchema, CitationInfoSchema, SearchDocSchema, type SearchDoc } from './documents.js';

/** docs/reference/wire-format.md "A typical single-model stream": the SearchDoc keys, in the order the service writes them. */
const WIRE_KEY_ORDER = [
  'document_id',
  'chunk_ind',
  'semantic_identifier',
  'link',
  'blurb',
  'source_type',
  'boost',
  'hidden',
  'metadata',
  'score',
  'is_relevant',
  'relevance_explanation',
  'match_highlights',
  'updated_at',
  'primary_owners',
  'secondary_owners',
  'is_internet',
  'file_id',
];

const DOC: SearchDoc = {
  document_id: 'doc-deploy-overview',
  chunk_ind: 0,
  semantic_identifier: 'Deployment overview',
  link: 'https://docs.example.com/deploy',
  blurb: 'It can be deployed with Docker Compose or Kubernetes.',
  source_type: 'web',
  boost: 0,
  hidden: false,
  metadata: { section: 'Deployment', tags: ['docker', 'kubernetes'] },
  score: 0.8731,
  is_relevant: null,
  relevance_explanation: null,
  match_highlights: ['<hi>deployed</hi>'],
  updated_at: '2025-09-14T10:21:07Z',
  primary_owners: ['alice@example.com'],
  secondary_owners: null,
  is_internet: false,
  file_id: null,
};

describe('SearchDocSchema', () => {
  it('declares the keys in the order of docs/reference/wire-format.md, and parses into that order', () => {
    expect(Object.keys(SearchDocSchema.shape)).toEqual(WIRE_KEY_ORDER);
    const scrambled = Object.fromEntries(Object.entries(DOC).reverse());
    expect(Object.keys(SearchDocSchema.parse(scrambled))).toEqual(WIRE_KEY_ORDER);
  });

  it('round-trips a document, keeps fields it does not know, and defaults is_internet to false', () => {
    expect(SearchDocSchema.parse(DOC)).toEqual(DOC);
    const { is_internet: _omitted, ...withoutInternet } = DOC;
    expect(SearchDocSchema.parse({ ...withoutInternet, new_field: 'kept' })).toEqual({ ...DOC, new_field: 'kept' });
  });

  it.each([
    { name: 'a numeric metadata value', doc: { ...DOC, metadata: { size: 3 } }, path: 'metadata.size' },
    { name: 'a fractional chunk_ind', doc: { ...DOC, chunk_ind: 1.5 }, path: 'chunk_ind' },
    { name: 'a missing blurb', doc: { ...DOC, blurb: undefined }, path: 'blurb' },
  ])('rejects $name', ({ doc, path }) => {
    expect(SearchDocSchema.safeParse(doc).error?.issues.map((issue) => issue.path.join('.'))).toEqual([path]);
  });
});

describe('DocumentSourceSchema', () => {
  it.each(['web', 'confluence', 'ingestion_api', 'google_drive'])('accepts %s', (source) => {
    expect(DocumentSourceSchema.parse(source)).toBe(source);
  });
  it.each(['Bad Source', 'Web', '', 'google-drive'])('rejects %j', (source) => {
    expect(DocumentSourceSchema.safeParse(source).error?.issues[0]?.message).toBe(
      'a document source is a lowercase identifier such as "web" or "confluence"',
    );
  });
});

describe('CitationInfoSchema', () => {
  it('defaults type to citation_info and refuses another type', () => {
    expect(CitationInfoSchema.parse({ citation_number: 1, document_id: 'd1' })).toEqual({
      type: 'citation_info',
      citation_number: 1,
      document_id: 'd1',
    });
    expect(CitationInfoSchema.safeParse({ type: 'other', citation_number: 1, document_id: 'd1' }).success).toBe(false);
  });
});

describe('ChatFullResponseSchema', () => {
  const full = {
    answer: 'It can be deployed with Docker Compose or Kubernetes [[1]](https://docs.example.com/deploy).',
    answer_citationless: 'It can be deployed with Docker Compose or Kubernetes.',
    pre_answer_reasoning: null,
    tool_calls: [
      {
        tool_name: 'internal_search',
        tool_arguments: { queries: ['deployment options'] },
        tool_result: '2 documents',
        search_docs: [DOC],
        generated_images: null,
        pre_reasoning: null,
      },
    ],
    top_documents: [DOC],
    citation_info: [{ type: 'citation_info', citation_number: 1, document_id: 'doc-deploy-overview' }],
    message_id: 102,
    chat_session_id: '6f1c2d3e-1111-4a2b-9c3d-0123456789ab',
    incognito: false,
    error_msg: null,
  };

  it('round-trips a complete response', () => {
    expect(ChatFullResponseSchema.parse(full)).toEqual(full);
    expect(ChatFullResponseSchema.parse(JSON.parse(JSON.stringify(full)))).toEqual(full);
  });

  it('applies the defaults of omitted fields, citation types included', () => {
    const {
      tool_calls: _t,
      incognito: _i,
      pre_answer_reasoning: _p,
      chat_session_id: _c,
      error_msg: _e,
      ...required
    } = full;
    const parsed = ChatFullResponseSchema.parse({
      ...required,
      citation_info: [{ citation_number: 1, document_id: 'doc-deploy-overview' }],
    });
    expect(parsed.tool_calls).toEqual([]);
    expect(parsed.incognito).toBe(false);
    expect(parsed.citation_info).toEqual(full.citation_info);
  });

  it('accepts a failed answer (error_msg set, status 200) and requires message_id', () => {
    expect(
      ChatFullResponseSchema.parse({ ...full, answer: '', answer_citationless: '', error_msg: 'model failed' })
        .error_msg,
    ).toBe('model failed');
    const { message_id: _m, ...withoutId } = full;
    expect(ChatFullResponseSchema.safeParse(withoutId).error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'message_id',
    ]);
  });
});
