/**
 * @module cli/duration
 * Durations on the command line: `500ms`, `60s`, `2m`, `1h`, `1m30s`; a bare number is seconds.
 * Every duration flag goes through here, so each one is checked the same way: a negative value, a
 * zero where a wait must happen, and a value longer than a timer can hold (or than the flag's
 * documented maximum) are usage errors naming the flag, never a timer that fires at once.
 */
import { UsageError } from '../errors.js';
import { formatDuration, LIMITS } from '../util/limits.js';
import { parseDurationMs } from '../plan/stages.js';

export interface DurationBounds {
  /** Refuse 0 (a timeout, a step length): the flag needs time to pass. Default false: 0 is allowed. */
  readonly positive?: boolean;
  /** The longest allowed, ms; default LIMITS.durationMs (what a Node timer can wait). */
  readonly maxMs?: number;
}

/** Milliseconds of a duration flag; throws a UsageError naming the flag on anything else. */
export function parseDuration(text: string, flag: string, bounds: DurationBounds = {}): number {
  const trimmed = text.trim();
  const example = 'e.g. 500ms, 60s, 2m, 1m30s';
  if (/^-/.test(trimmed))
    throw new UsageError(`--${flag}: "${text}" is negative; a duration is 0 or more (${example})`);
  const ms = parseDurationMs(trimmed);
  if (ms === undefined || !Number.isFinite(ms))
    throw new UsageError(`--${flag}: "${text}" is not a duration (${example})`);
  if (bounds.positive && ms <= 0)
    throw new UsageError(`--${flag}: "${text}" is no time at all; give a duration above 0 (${example})`);
  const max = Math.min(bounds.maxMs ?? LIMITS.durationMs, LIMITS.durationMs);
  if (ms > max) throw new UsageError(`--${flag}: "${text}" is over the maximum of ${formatDuration(max)}`);
  return ms;
}

/** A duration flag that must be more than zero (a time limit of 0 would fail every request). */
export const positiveDuration = (text: string, flag: string): number => parseDuration(text, flag, { positive: true });
