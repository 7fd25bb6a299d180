import { describe, expect, it } from 'vitest';
import { modelWarnings } from './model-notes.js';

describe('modelWarnings', () => {
  it('warns when the service never confirmed the model asked, or named another', () => {
    expect(modelWarnings([
      { set: 'fast', asked: ['openai:gpt-4o-mini'], answered: [] },
      { set: 'duo', asked: ['openai:gpt-4o-mini', 'openai:gpt-4o'], answered: ['gpt-4o', 'gpt-4o-mini'] },
      { set: 'swapped', asked: ['bedrock:claude-3'], answered: ['gpt-4o'] },
      { set: 'default', asked: [], answered: [] },
    ])).toEqual([
      'set fast: asked for openai:gpt-4o-mini, but the service never confirmed which model answered (a single-model answer names none; only a streaming error\'s details or a multi-model stream do)',
      'set swapped: asked for bedrock:claude-3, but the service says gpt-4o answered',
    ]);
  });
});
