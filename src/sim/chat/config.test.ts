import { describe, expect, it } from 'vitest';
import { ChatConfigSchema } from './config.js';

describe('chat.ttfp_ms (formerly first_part_ms)', () => {
  const delay = (median: number) => ({ median, p99: median * 2 });

  it.each([
    ['neither: the default', {}, { median: 25, p99: 100 }],
    ['ttfp_ms', { ttfp_ms: delay(7) }, delay(7)],
    ['the retired first_part_ms, still read', { first_part_ms: delay(9) }, delay(9)],
    ['both: ttfp_ms wins', { ttfp_ms: delay(7), first_part_ms: delay(9) }, delay(7)],
  ])('%s', (_name, input, expected) => {
    const config = ChatConfigSchema.parse(input);
    expect(config.ttfp_ms).toEqual(expected);
    expect('first_part_ms' in config).toBe(false);
  });

  it('checks the retired key as strictly as the new one', () => {
    expect(ChatConfigSchema.safeParse({ first_part_ms: { median: 5, p99: 1 } }).success).toBe(false);
  });
});
