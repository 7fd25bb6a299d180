import { describe, expect, it } from 'vitest';
import { withoutCrlf } from './row-file.js';

describe('withoutCrlf', () => {
  it.each([
    ['a,b\r\nc,d', 'a,b\nc,d'],
    ['"x\r\ny",z\r\n', '"x\ny",z\n'],
    ['lone\rcr\n\r', 'lone\rcr\n\r'],
    ['\r\n\r\n', '\n\n'],
    ['', ''],
    ['é\r\n漢', 'é\n漢'],
  ])('%j → %j, in place', (input, output) => {
    const bytes = Buffer.from(input, 'utf8');
    const view = withoutCrlf(bytes);
    expect(view.toString('utf8')).toBe(output);
    expect(view.buffer).toBe(bytes.buffer); // no copy
  });
});
