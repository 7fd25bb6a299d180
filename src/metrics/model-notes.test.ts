import { describe, expect, it } from 'vitest';
import { modelNotes } from './model-notes.js';

describe('modelNotes', () => {
  it('warns when the service named another model; one quiet note for the sets it never confirmed', () => {
    expect(
      modelNotes([
        { set: 'fast', asked: ['openai:gpt-4o-mini'], answered: [] },
        { set: 'accurate', asked: ['openai:gpt-4o'], answered: [] },
        { set: 'duo', asked: ['openai:gpt-4o-mini', 'openai:gpt-4o'], answered: ['gpt-4o', 'gpt-4o-mini'] },
        { set: 'swapped', asked: ['bedrock:claude-3'], answered: ['gpt-4o'] },
        { set: 'default', asked: [], answered: [] },
      ]),
    ).toEqual({
      warnings: ['set swapped: asked for bedrock:claude-3, but the service says gpt-4o answered'],
      note: 'the service does not confirm which model answered single-model requests; asked: fast=openai:gpt-4o-mini, accurate=openai:gpt-4o',
    });
  });

  it('says nothing when every model was confirmed as asked, or none was asked', () => {
    expect(
      modelNotes([
        { set: 'duo', asked: ['openai:gpt-4o-mini', 'openai:gpt-4o'], answered: ['gpt-4o', 'gpt-4o-mini'] },
        { set: 'default', asked: [], answered: [] },
      ]),
    ).toEqual({ warnings: [], note: null });
  });
});
