import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import { liveOutput, TerminalSafeStream, terminalSafe } from './terminal-safe.js';

it('shows every control character but tab and newline as an escape', () => {
  expect(terminalSafe('a\tb\nc')).toBe('a\tb\nc');
  expect(terminalSafe('\x1b]0;pwned\x07\x1b[31mred\r\x00\x7f\u009b\u2028')).toBe(
    '\\x1b]0;pwned\\x07\\x1b[31mred\\x0d\\x00\\x7f\\x9b\\u2028',
  );
  expect(terminalSafe('naïve · 日本 ✓')).toBe('naïve · 日本 ✓');
});

it('a TerminalSafeStream filters what is written, in order, and hands live views the raw stream', () => {
  const chunks: string[] = [];
  const raw = Object.assign(new Writable({ write: (c, _e, cb) => void (chunks.push(String(c)), cb()) }), {
    isTTY: true,
    columns: 80,
  });
  const safe = new TerminalSafeStream(raw);
  safe.write('one \x1b[2J');
  safe.write(Buffer.from('two\n'));
  expect(chunks).toEqual(['one \\x1b[2J', 'two\n']);
  expect([safe.isTTY, safe.columns]).toEqual([true, 80]);
  expect(liveOutput(safe)).toBe(raw);
  expect(liveOutput(raw)).toBe(raw);
});
