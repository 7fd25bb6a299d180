import { describe, expect, it } from 'vitest';
import { modelChanges } from './model-changes.js';

describe('modelChanges', () => {
  const baseline = [
    { set: 'accurate', asked: ['openai:gpt-4o'], answered: [] },
    { set: 'fast', asked: ['openai:gpt-4o-mini'], answered: [] },
    { set: 'old', asked: ['azure:gpt-4o'], answered: [] },
    { set: 'plain', asked: [], answered: [] },
  ];
  it("names each set whose override differs from the baseline's, through --map", () => {
    expect(
      modelChanges(
        baseline,
        [
          { set: 'accurate', asked: ['openai:gpt-4o-mini'], answered: [] },
          { set: 'fast', asked: ['openai:gpt-4o-mini'], answered: [] },
          { set: 'new', asked: ['openai:gpt-4o'], answered: [] },
          { set: 'plain', asked: ['anthropic:claude-sonnet-4'], answered: [] },
          { set: 'unknown', asked: ['openai:gpt-4o'], answered: [] },
        ],
        { old: 'new' },
      ),
    ).toEqual([
      'set accurate: model changed gpt-4o → gpt-4o-mini',
      'set new: model changed azure:gpt-4o → openai:gpt-4o',
      'set plain: model changed the configured model → claude-sonnet-4',
    ]);
  });
});
