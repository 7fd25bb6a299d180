import { describe, expect, it } from 'vitest';
import { outputWidth, wrapLines } from './fit-width.js';

describe('wrapLines', () => {
  it.each([
    { name: 'a short line stays', text: 'short', width: 10, want: 'short' },
    { name: 'exactly the width stays', text: 'abcde fghi', width: 10, want: 'abcde fghi' },
    { name: 'breaks at a space, continuation indented by two', text: 'one two three four', width: 9, want: 'one two\n  three\n  four' },
    { name: 'keeps the line\'s own indent, two more after', text: '  alpha beta gamma', width: 12, want: '  alpha beta\n    gamma' },
    { name: 'a word over the width stays whole', text: 'x /a/very/long/path/name y', width: 8, want: 'x\n  /a/very/long/path/name\n  y' },
    { name: 'each line on its own', text: 'aa bb cc\nshort', width: 5, want: 'aa bb\n  cc\nshort' },
    { name: 'code points, not UTF-16 units', text: '··· ···', width: 7, want: '··· ···' },
  ])('$name', ({ text, width, want }) => {
    expect(wrapLines(text, width)).toBe(want);
    // Only a line that is one word (after its indent) may be wider than the width.
    const over = wrapLines(text, width).split('\n').filter((line) => [...line].length > width && line.trim().includes(' '));
    expect(over).toEqual([]);
  });
});

describe('outputWidth', () => {
  it.each([
    { name: 'a terminal: its columns', stream: { isTTY: true, columns: 80 }, env: { COLUMNS: '100' }, want: 80 },
    { name: 'a pipe with COLUMNS', stream: {}, env: { COLUMNS: '100' }, want: 100 },
    { name: 'a pipe without COLUMNS: no limit', stream: {}, env: {}, want: undefined },
    { name: 'a COLUMNS that is no number', stream: {}, env: { COLUMNS: 'wide' }, want: undefined },
  ])('$name', ({ stream, env, want }) => {
    expect(outputWidth(stream, env)).toBe(want);
  });
});
