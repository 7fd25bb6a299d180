import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputError } from '../errors.js';
import { parseJsonText } from './parse-json.js';

const Schema = z.object({ name: z.string(), sets: z.array(z.object({ id: z.number() })) });
const problemsOf = (fn: () => unknown): readonly string[] => {
  try {
    fn();
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  return [];
};

describe('parseJsonText', () => {
  it('returns the validated value', () => {
    expect(parseJsonText('{"name": "a", "sets": [{"id": 1}]}', 'x.json', Schema)).toEqual({
      name: 'a',
      sets: [{ id: 1 }],
    });
  });
  it('names the file when the text is not JSON', () => {
    expect(problemsOf(() => parseJsonText('{"name":', 'x.json', Schema))[0]).toMatch(/^x\.json: not JSON \(/);
  });
  it('lists every problem with its path, the top level as such', () => {
    expect(problemsOf(() => parseJsonText('{"sets": [{"id": "1"}, {}]}', 'x.json', Schema))).toEqual([
      'x.json: name: Invalid input: expected string, received undefined',
      'x.json: sets.0.id: Invalid input: expected number, received string',
      'x.json: sets.1.id: Invalid input: expected number, received undefined',
    ]);
    expect(problemsOf(() => parseJsonText('[]', 'x.json', Schema))).toEqual([
      'x.json: (top level): Invalid input: expected object, received array',
    ]);
  });
});
