import { describe, expect, it } from 'vitest';
import { DatasetRowSchema, type DatasetRow } from '../dataset/index.js';
import type { SetDefinition } from '../sets/index.js';
import { buildPlan } from './build-plan.js';

const row = (id: string, cells: Record<string, string> = {}): DatasetRow =>
  DatasetRowSchema.parse({
    line: 2,
    id,
    question: `question ${id}`,
    expected_documents: 'd1|d2',
    must_contain: '',
    must_not_contain: '',
    expect_no_answer: '',
    category: 'hr',
    persona_id: '',
    project_id: '',
    additional_context: '',
    source_type: '',
    document_set: '',
    tags: '',
    time_cutoff: '',
    ...cells,
  });
const single: SetDefinition = {
  name: 'fast',
  llm_override: { model_provider: 'openai', model_version: 'gpt-4o-mini', temperature: 0 },
  llm_overrides: null,
  multi: false,
};
const multi: SetDefinition = {
  name: 'side',
  llm_override: null,
  multi: true,
  llm_overrides: [
    { model_version: 'gpt-4o-mini' },
    { model_provider: 'anthropic', model_version: 'claude-sonnet-4', display_name: 'Claude' },
    {},
  ],
};
const service: SetDefinition = { name: 'default', llm_override: null, llm_overrides: null, multi: false };

describe('buildPlan', () => {
  it('crosses questions × sets × modes × repeats, sets side by side per question, multi-model streamed only', () => {
    const plan = buildPlan({
      rows: [row('q1'), row('q2')],
      sets: [single, multi],
      defaults: {},
      mode: 'both',
      repeat: 2,
    });
    expect(plan.map((p) => p.key)).toEqual([
      'q1|fast|stream|0',
      'q1|fast|full|0',
      'q1|side|stream|0',
      'q2|fast|stream|0',
      'q2|fast|full|0',
      'q2|side|stream|0',
      'q1|fast|stream|1',
      'q1|fast|full|1',
      'q1|side|stream|1',
      'q2|fast|stream|1',
      'q2|fast|full|1',
      'q2|side|stream|1',
    ]);
    expect(plan.map((p) => p.index)).toEqual([...plan.keys()]);
    expect(new Set(plan.map((p) => p.key)).size).toBe(plan.length);
  });

  it('builds bodies: stream from mode, overrides, a new session per request, defaults, row over defaults', () => {
    const [stream, full] = buildPlan({
      rows: [row('q1', { persona_id: '3', source_type: 'github', additional_context: 'row context' })],
      sets: [single],
      defaults: {
        persona_id: 9,
        include_citations: false,
        origin: 'api',
        additional_context: 'default context',
        project: { id: 7, instructions: 'x' },
        mcp_headers: { Authorization: 'Bearer u' },
      },
      mode: 'both',
      repeat: 1,
    });
    expect(stream?.body).toEqual({
      message: 'question q1',
      stream: true,
      chat_session_info: { persona_id: 3, project_id: 7 },
      llm_override: single.llm_override,
      internal_search_filters: { source_type: ['github'] },
      additional_context: 'row context',
      include_citations: false,
      origin: 'api',
      mcp_headers: { Authorization: 'Bearer u' },
    });
    expect(full?.body.stream).toBe(false);
    expect(stream?.body).not.toHaveProperty('chat_session_id');
  });

  it('leaves out what the service defaults when neither row nor defaults give it', () => {
    const [planned] = buildPlan({ rows: [row('q1')], sets: [service], defaults: {}, mode: 'stream', repeat: 1 });
    expect(planned?.body).toEqual({ message: 'question q1', stream: true, chat_session_info: { persona_id: 0 } });
    expect(planned?.model_names).toBeNull();
  });

  it('names the models of a multi-model set by display name, version, or slot', () => {
    const [planned] = buildPlan({ rows: [row('q1')], sets: [multi], defaults: {}, mode: 'stream', repeat: 1 });
    expect(planned?.model_names).toEqual(['gpt-4o-mini', 'Claude', 'model 2']);
    expect(planned?.body.llm_overrides).toHaveLength(3);
  });

  it('carries expectations and identity through untouched', () => {
    const [planned] = buildPlan({
      rows: [row('q7', { must_contain: '20 days', expect_no_answer: 'false' })],
      sets: [service],
      defaults: {},
      mode: 'full',
      repeat: 1,
    });
    expect(planned).toMatchObject({
      question_id: 'q7',
      question: 'question q7',
      category: 'hr',
      set: 'default',
      mode: 'full',
      repeat: 0,
      expected_document_ids: ['d1', 'd2'],
      expectations: {
        expected_document_ids: ['d1', 'd2'],
        must_contain: ['20 days'],
        must_not_contain: [],
        expect_no_answer: false,
      },
    });
  });

  it('is empty for no rows and repeats the plan exactly', () => {
    expect(buildPlan({ rows: [], sets: [single], defaults: {}, mode: 'both', repeat: 3 })).toEqual([]);
  });
});
