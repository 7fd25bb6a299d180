import { describe, expect, it } from 'vitest';
import { PyRaw } from '../encode/index.js';
import { BUILTIN_PROFILES } from '../profiles.js';
import { releaseTraits } from '../releases.js';
import { createRng } from '../rng.js';
import type { Answer } from './answer.js';
import { planModel, type ModelPlanInput, type TimedPart } from './model-plan.js';

const answer: Answer = {
  segments: [
    { kind: 'token', text: 'Deploys', marker: false },
    { kind: 'token', text: ' freeze', marker: false },
    { kind: 'citation', citation_number: 1, document_id: 'd1' },
    { kind: 'token', text: ' [[1]](https://x/d1)', marker: true },
    { kind: 'token', text: '.', marker: false },
  ],
  text: 'Deploys freeze [[1]](https://x/d1).',
  citationless: 'Deploys freeze.',
  citations: [{ citation_number: 1, document_id: 'd1' }],
  found: true,
};
const input = (over: Partial<ModelPlanInput> = {}): ModelPlanInput => ({
  modelIndex: 0,
  multi: false,
  profile: BUILTIN_PROFILES['gpt-4o']!,
  timing: createRng(1),
  answer,
  reasoning: null,
  queries: ['q'],
  documents: new PyRaw('[]'),
  timeScale: 1,
  failure: null,
  traits: releaseTraits({ release: '4.2', backend_version: 'v4.2.0' }), // no filter delta yet: the plain layout
  ...over,
});
const typeOf = (p: TimedPart) =>
  p.delta ? 'message_delta' : ((p.part as { obj?: { type: string } }).obj?.type ?? 'error');

describe('planModel', () => {
  it('lays out search, message_start with its first delta, one token per interval, a citation with its marker, then stop', () => {
    const run = planModel(input());
    expect(run.steps.map(typeOf)).toEqual([
      'search_tool_start',
      'search_tool_queries_delta',
      'search_tool_documents_delta',
      'section_end',
      'message_start',
      'message_delta',
      'message_delta',
      'citation_info',
      'message_delta',
      'message_delta',
      'stop',
    ]);
    const at = run.steps.map((s) => s.at);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(at[4]).toBe(at[5]); // message_start and the first delta together
    expect(at[7]).toBe(at[8]); // citation_info with the marker it precedes
    const start = run.steps[4]!.part as { obj: { pre_answer_processing_seconds: { value: number } } };
    expect(start.obj.pre_answer_processing_seconds.value).toBeCloseTo(at[4]! / 1000, 2);
    expect(run).toMatchObject({ tokens: 4, text: answer.text, citationless: answer.citationless, error: null });
  });
  it('time_scale multiplies every time', () => {
    const [slow, fast] = [planModel(input()), planModel(input({ timeScale: 0.1 }))];
    fast.steps.forEach((s, i) => expect(s.at).toBeCloseTo(slow.steps[i]!.at * 0.1, 6));
  });
  it('reasoning comes before message_start and counts as tokens', () => {
    const run = planModel(input({ reasoning: [' a', ' b'] }));
    const types = run.steps.map(typeOf);
    expect(types.slice(4, 8)).toEqual(['reasoning_start', 'reasoning_delta', 'reasoning_delta', 'reasoning_done']);
    expect(types[8]).toBe('message_start');
    expect(run.tokens).toBe(6);
    expect(run.reasoning).toBe(' a b');
  });
  it('a failure cuts the answer and ends with the streaming error instead of stop', () => {
    const run = planModel(input({ failure: { code: 'RATE_LIMIT' }, multi: true, modelIndex: 2 }));
    const last = run.steps.at(-1)!.part;
    expect(last).toMatchObject({ error_code: 'RATE_LIMIT', is_retryable: true, details: { model_index: 2 } });
    expect(run.steps.some((s) => typeOf(s) === 'stop')).toBe(false);
    expect(run.tokens).toBeLessThan(4);
    expect(run.error).toContain('RATE_LIMIT');
  });
});
