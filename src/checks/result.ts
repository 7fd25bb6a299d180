/**
 * @module checks/result
 * What a user check returned, as a record keeps it (records/quality CheckResult): `true`/`false`
 * → 1/0, a finite number as it is, `{ pass?, score?, reason? }` → its score (else its pass as
 * 1/0) and reason, `null`/`undefined` → N/A. Anything else is that check's error on that record.
 */
import type { CheckResult } from '../records/quality.js';

/** What the worker sends back: a structured clone of the returned value (functions and classes do not survive). */
export function toCheckResult(value: unknown): CheckResult {
  if (value === null || value === undefined) return { score: null, reason: null, error: null };
  if (typeof value === 'boolean') return { score: value ? 1 : 0, reason: null, error: null };
  if (typeof value === 'number') {
    return Number.isFinite(value)
      ? { score: value, reason: null, error: null }
      : { score: null, reason: null, error: `returned ${value}, not a finite number` };
  }
  if (typeof value === 'object' && !Array.isArray(value)) {
    const { pass, score, reason } = value as { pass?: unknown; score?: unknown; reason?: unknown };
    const text = reason === undefined || reason === null ? null : String(reason).slice(0, 500);
    if (score !== undefined && score !== null) {
      if (typeof score !== 'number' || !Number.isFinite(score))
        return { score: null, reason: text, error: `returned score ${JSON.stringify(score)}, not a finite number` };
      return { score, reason: text, error: null };
    }
    if (pass !== undefined && pass !== null) {
      if (typeof pass !== 'boolean')
        return { score: null, reason: text, error: `returned pass ${JSON.stringify(pass)}, not a boolean` };
      return { score: pass ? 1 : 0, reason: text, error: null };
    }
    return { score: null, reason: text, error: null };
  }
  return {
    score: null,
    reason: null,
    error: `returned ${Array.isArray(value) ? 'an array' : typeof value}, not a boolean, a number or { pass, score, reason }`,
  };
}
