/**
 * @module cli/duration
 * Durations on the command line: `500ms`, `60s`, `2m`, `1h`, `1m30s`; a bare number is seconds.
 */
import { UsageError } from '../errors.js';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** Milliseconds of a duration flag; throws a UsageError naming the flag on anything else. */
export function parseDuration(text: string, flag: string): number {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== trimmed) {
    throw new UsageError(`--${flag}: "${text}" is not a duration (e.g. 500ms, 60s, 2m, 1m30s)`);
  }
  return parts.reduce((total, [, value, unit]) => total + Number(value) * UNIT_MS[unit as keyof typeof UNIT_MS], 0);
}

/** A duration flag that must be more than zero (a time limit of 0 would fail every request). */
export function positiveDuration(text: string, flag: string): number {
  const ms = parseDuration(text, flag);
  if (!(ms > 0)) throw new UsageError(`--${flag}: "${text}" must be more than zero`);
  return ms;
}
