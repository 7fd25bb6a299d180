import { describe, expect, it } from 'vitest';
import { SendMessageRequestSchema, type SendMessageRequest } from './send-message.js';

/** docs/reference/service-api.md "SendMessageRequest" with every field given. */
const FULL: SendMessageRequest = {
  message: 'How can the service be deployed?',
  llm_override: {
    model_configuration_id: 12,
    model_provider: 'OpenAI',
    model_version: 'gpt-4o',
    temperature: 0.2,
    display_name: 'GPT-4o',
  },
  llm_overrides: [
    { model_version: 'gpt-4o', temperature: 0 },
    {
      model_configuration_id: 31,
      model_provider: 'Anthropic',
      model_version: 'claude-sonnet-4',
      temperature: 2,
      display_name: null,
    },
  ],
  allowed_tool_ids: [1, 2],
  forced_tool_id: 1,
  file_descriptors: [{ id: 'file-1', type: 'document', name: 'handbook.pdf', user_file_id: '9d1c' }],
  internal_search_filters: {
    source_type: ['web', 'confluence'],
    document_set: ['Engineering'],
    created_at_range: { start: '2025-01-01T00:00:00', end: null },
    updated_at_range: { start: '2025-06-01T00:00:00Z', end: '2025-07-01T00:00:00+02:00' },
    tags: [{ tag_key: 'team', tag_value: 'platform' }],
    time_cutoff: '2025-08-01T12:30:00Z',
  },
  deep_research: false,
  mcp_headers: { Authorization: 'Bearer <USER_JWT>' },
  origin: 'api',
  parent_message_id: 102,
  chat_session_id: '6f1c2d3e-1111-4a2b-9c3d-0123456789ab',
  chat_session_info: {
    persona_id: 0,
    description: 'load test',
    project_id: 7,
    incognito: true,
    incognito_session_id: '0b7e6a51-2222-4c3d-8e9f-abcdefabcdef',
  },
  stream: true,
  include_citations: true,
  additional_context: 'The reader is an operator.',
};

describe('SendMessageRequestSchema', () => {
  it('round-trips the full example unchanged', () => {
    const parsed = SendMessageRequestSchema.parse(FULL);
    expect(parsed).toEqual(FULL);
    expect(SendMessageRequestSchema.parse(JSON.parse(JSON.stringify(parsed)))).toEqual(FULL);
  });

  it('applies the defaults of the description to a bare message', () => {
    expect(SendMessageRequestSchema.parse({ message: 'hi' })).toEqual({
      message: 'hi',
      file_descriptors: [],
      deep_research: false,
      origin: 'unset',
      parent_message_id: -1,
      stream: true,
      include_citations: true,
    });
  });

  it.each([
    {
      name: 'llm_override',
      body: { message: 'x', llm_override: { temperature: 2.5 } },
      path: ['llm_override', 'temperature'],
    },
    {
      name: 'llm_overrides[1]',
      body: { message: 'x', llm_overrides: [{}, { temperature: -0.1 }] },
      path: ['llm_overrides', 1, 'temperature'],
    },
  ])('rejects a temperature outside 0..2 in $name', ({ body, path }) => {
    const result = SendMessageRequestSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues).toMatchObject([{ path, message: 'temperature must be between 0 and 2' }]);
  });

  it.each([
    { name: 'no message', body: {}, path: 'message' },
    { name: 'an unknown origin', body: { message: 'x', origin: 'email' }, path: 'origin' },
    {
      name: 'a file type outside ChatFileType',
      body: { message: 'x', file_descriptors: [{ id: 'f', type: 'video' }] },
      path: 'file_descriptors.0.type',
    },
    {
      name: 'a session id that is not a uuid',
      body: { message: 'x', chat_session_id: 'abc' },
      path: 'chat_session_id',
    },
    {
      name: 'a date-time that is not one',
      body: { message: 'x', internal_search_filters: { time_cutoff: 'yesterday' } },
      path: 'internal_search_filters.time_cutoff',
    },
    {
      name: 'a bad source type',
      body: { message: 'x', internal_search_filters: { source_type: ['Bad Source'] } },
      path: 'internal_search_filters.source_type.0',
    },
  ])('rejects $name', ({ body, path }) => {
    const result = SendMessageRequestSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([path]);
  });

  it('ignores unknown fields, as the service does', () => {
    expect(SendMessageRequestSchema.parse({ message: 'x', new_field: 1 })).not.toHaveProperty('new_field');
  });
});
