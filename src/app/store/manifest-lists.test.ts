import { describe, expect, it } from 'vitest';
import { withoutQuestionLists } from './manifest.js';

const manifest = (extra: Record<string, unknown>) =>
  JSON.stringify({ command: 'eval', ...extra, sets: [{ name: 'a' }], options: { mode: 'full' } }, null, 2);

describe('withoutQuestionLists', () => {
  it.each([
    ['question_ids in the middle', { question_ids: ['q1', 'q "2" ]', 'q3\n  ]'] }],
    ['both lists', { question_ids: ['q1'], conversation_units: [['c#1', 'c#2'], ['q1']] }],
    ['empty lists (left as they are)', { question_ids: [], conversation_units: [] }],
  ])('%s: the rest parses to what the whole gives', (_, extra) => {
    const text = manifest(extra);
    const { question_ids: _ids, conversation_units: _units, ...rest } = JSON.parse(text) as Record<string, unknown>;
    const cut = JSON.parse(withoutQuestionLists(text)) as Record<string, unknown>;
    expect({ ...cut, question_ids: undefined, conversation_units: undefined }).toEqual({
      ...rest,
      question_ids: undefined,
      conversation_units: undefined,
    });
    expect(withoutQuestionLists(text).length).toBeLessThanOrEqual(text.length);
  });

  it('the last member: the comma before it goes', () => {
    const text = JSON.stringify({ command: 'eval', question_ids: ['q1', 'q2'] }, null, 2);
    expect(JSON.parse(withoutQuestionLists(text))).toEqual({ command: 'eval' });
  });

  it('text laid out otherwise is left as it is', () => {
    const compact = JSON.stringify({ question_ids: ['q1'], command: 'eval' });
    expect(withoutQuestionLists(compact)).toBe(compact);
  });
});
