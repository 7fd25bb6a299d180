/**
 * @module cli/output/verdict
 * The one line a command ends with (and all that --quiet prints besides errors): what the exit code
 * means, in words. Gates decide it; without gates a finished run is DONE.
 */
import type { Paint } from '../../reports/paint.js';

export interface GateTally {
  readonly passed: boolean;
}

/** `PASSED: all 3 gates passed · 75 requests` / `FAILED: 1 of 3 gates failed · …` / `DONE: no gate set · …`. */
export function gatesVerdict(gates: readonly GateTally[], detail: string, paint: Paint, interrupted = false): string {
  const tail = detail === '' ? '' : ` · ${detail}`;
  if (interrupted) return `${paint.warn('INTERRUPTED')}${tail}`;
  if (gates.length === 0) return `${paint.good('DONE')}: no gate set${tail}`;
  const failed = gates.filter((g) => !g.passed).length;
  if (failed > 0) return `${paint.bad('FAILED')}: ${failed} of ${gates.length} gates failed${tail}`;
  return `${paint.good('PASSED')}: ${gates.length === 1 ? 'the gate' : `all ${gates.length} gates`} passed${tail}`;
}
