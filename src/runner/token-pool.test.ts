import { expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { createTokenPool, parseTokenFile } from './token-pool.js';

const take = (pool: { next(): number }, n: number) => Array.from({ length: n }, () => pool.next());

it('goes round-robin without weights (or with equal ones)', () => {
  expect(take(createTokenPool(3), 7)).toEqual([0, 1, 2, 0, 1, 2, 0]);
  expect(take(createTokenPool(2, [5, 5]), 4)).toEqual([0, 1, 0, 1]);
  expect(take(createTokenPool(1), 3)).toEqual([0, 0, 0]);
});

it('follows the weights exactly over a cycle, interleaved rather than in bursts', () => {
  const picks = take(createTokenPool(3, [5, 1, 1]), 7);
  expect(picks.filter((i) => i === 0)).toHaveLength(5);
  expect(picks).toEqual([0, 0, 1, 0, 2, 0, 0]);
  const many = take(createTokenPool(2, [3, 1]), 400);
  expect(many.filter((i) => i === 1)).toHaveLength(100);
});

it('reads a token file with optional weights and reports bad lines without their tokens', () => {
  expect(parseTokenFile('# team tokens\ntok_a\n\ntok_b\n', 't.txt')).toEqual({
    tokens: ['tok_a', 'tok_b'],
    weights: null,
  });
  expect(parseTokenFile('tok_a 3\ntok_b\n', 't.txt')).toEqual({ tokens: ['tok_a', 'tok_b'], weights: [3, 1] });
  try {
    parseTokenFile('secret_one 0\nsecret_two 1 2\n', 't.txt');
    expect.unreachable();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).problems).toEqual([
      't.txt:1: the weight must be a number above 0',
      't.txt:2: expected "token" or "token weight", got 3 columns',
    ]);
    expect((error as Error).message).not.toContain('secret');
  }
  expect(() => parseTokenFile('\n# none\n', 't.txt')).toThrow(/no tokens/);
});
