/**
 * @module plan/think-time
 * `--think-time`: how long a virtual user waits between the end of one turn of a conversation and
 * the sending of the next, as a distribution:
 *
 *   0 | 5s | 1500ms           a constant
 *   2s..8s                    uniform between the bounds
 *   lognormal:3s,p99=15s      log-normal with median 3 s and 99th percentile 15 s
 *
 * Durations take ms, s, m (a bare 0 is allowed). A draw depends only on the seed, the conversation's
 * arrival number and the turn, so every shard and every repeat of a run draws the same waits. Pure.
 */
import { ThinkTimeSchema, type ThinkTime } from '../records/load-spec.js';
import { uniformAt } from './load-plan.js';

export { ThinkTimeSchema, type ThinkTime };

/** z of the 99th percentile of the standard normal. */
const Z_P99 = 2.3263478740408408;
const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/** `3s`, `1500ms`, `0.5m`, `0`; a message naming the problem otherwise. */
function durationMs(text: string, what: string): number | string {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(text.trim());
  if (match === null) return `${what} "${text.trim()}" is not a duration (e.g. 500ms, 3s, 1m)`;
  const value = Number(match[1]);
  if (match[2] === undefined && value !== 0) return `${what} "${text.trim()}" needs a unit (ms, s or m)`;
  return value * UNITS[match[2] ?? 'ms']!;
}

/** Parses a think time; returns every problem found, or the distribution. */
export function parseThinkTime(text: string): ThinkTime | { problems: string[] } {
  const input = text.trim();
  const problems: string[] = [];
  const take = (value: number | string): number => {
    if (typeof value === 'string') problems.push(value);
    return typeof value === 'number' ? value : 0;
  };
  const form = 'give a constant (5s), a range (2s..8s) or lognormal:MEDIAN,p99=P99 (lognormal:3s,p99=15s)';
  if (input === '') return { problems: [`empty: ${form}`] };
  if (input.startsWith('lognormal:')) {
    const [median = '', p99 = '', ...extra] = input.slice('lognormal:'.length).split(',');
    if (extra.length > 0) problems.push(`"${input}": lognormal takes a median and p99=…, nothing more`);
    const medianMs = take(durationMs(median, 'the median'));
    const p99Match = /^\s*p99\s*=(.*)$/.exec(p99);
    if (p99Match === null)
      problems.push(`"${input}": lognormal needs p99=DURATION after the median (lognormal:3s,p99=15s)`);
    const p99Ms = p99Match === null ? 0 : take(durationMs(p99Match[1] ?? '', 'p99'));
    if (problems.length === 0 && medianMs <= 0) problems.push(`"${input}": the median must be above 0`);
    if (problems.length === 0 && p99Ms < medianMs)
      problems.push(`"${input}": p99 (${p99Ms} ms) is below the median (${medianMs} ms)`);
    return problems.length > 0 ? { problems } : { kind: 'lognormal', median_ms: medianMs, p99_ms: p99Ms };
  }
  if (input.includes('..')) {
    const [low = '', high = '', ...extra] = input.split('..');
    if (extra.length > 0) problems.push(`"${input}": a range has two bounds (2s..8s)`);
    const minMs = take(durationMs(low, 'the lower bound'));
    const maxMs = take(durationMs(high, 'the upper bound'));
    if (problems.length === 0 && minMs > maxMs)
      problems.push(`"${input}": the lower bound (${minMs} ms) is above the upper (${maxMs} ms)`);
    return problems.length > 0 ? { problems } : { kind: 'uniform', min_ms: minMs, max_ms: maxMs };
  }
  const ms = durationMs(input, 'the think time');
  return typeof ms === 'string' ? { problems: [`${ms}; ${form}`] } : { kind: 'constant', ms };
}

/** The wait before turn `turn` (≥ 2) of the conversation of arrival `arrival`, ms. */
export function thinkTimeMs(think: ThinkTime, seed: number, arrival: number, turn: number): number {
  const draw = (k: number) => uniformAt(seed ^ Math.imul(turn, 0x27d4eb2d) ^ Math.imul(k + 1, 0x165667b1), arrival);
  switch (think.kind) {
    case 'constant':
      return think.ms;
    case 'uniform':
      return think.min_ms + (think.max_ms - think.min_ms) * draw(0);
    case 'lognormal': {
      const sigma = Math.log(think.p99_ms / think.median_ms) / Z_P99;
      const z = Math.sqrt(-2 * Math.log(1 - draw(0))) * Math.cos(2 * Math.PI * draw(1));
      return think.median_ms * Math.exp(sigma * z);
    }
  }
}

/** `2s..8s`, `lognormal:3s,p99=15s`, `5s`: the distribution as written back in reports. */
export function describeThinkTime(think: ThinkTime): string {
  const s = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);
  switch (think.kind) {
    case 'constant':
      return s(think.ms);
    case 'uniform':
      return `${s(think.min_ms)}..${s(think.max_ms)}`;
    case 'lognormal':
      return `lognormal:${s(think.median_ms)},p99=${s(think.p99_ms)}`;
  }
}
