import { expect, it } from 'vitest';
import { formatDelta, formatValue } from './format-delta.js';

it('prints each per-request figure in its unit (issue 22: chars/s as chars/s, never ms)', () => {
  expect(formatValue({ kind: 'latency', figure: 'output_chars_per_s.p50' }, 534.2)).toBe('534 chars/s');
  expect(formatDelta({ kind: 'latency', figure: 'output_chars_per_s.p50' }, -12.5)).toBe('-12.5 chars/s');
  expect(formatValue({ kind: 'latency', figure: 'pre_answer_processing_seconds.p50' }, 1.234)).toBe('1.23 s');
  expect(formatValue({ kind: 'latency', figure: 'ttft_ms.p95' }, 534.2)).toBe('534 ms');
  expect(formatDelta({ kind: 'rate', figure: 'pass_rate' }, 0.1)).toBe('+10.0 pts');
});
