/**
 * @module compare/verdict
 * The verdict of a comparison (compare, eval --baseline): its gates decide (verdict/verdict), and
 * the line after the decision counts the significant changes by the one test the table and the
 * gates use (compare/compare: the figure's interval and Benjamini–Hochberg over every test).
 */
import type { GateVerdict } from '../figures/gate-verdict.js';
import { decide, type BestMark, type ModelNotes, type Verdict } from '../verdict/index.js';
import type { ExitCode } from '../errors.js';
import type { Comparison } from './schema.js';

/** `1 significantly worse, 14 better of 40 tests`; '' without a comparison. */
export function significantChanges(c: Comparison | null): string {
  if (c === null) return '';
  return `${c.significant.worse} significantly worse, ${c.significant.better} better of ${c.fdr.tests} tests`;
}

export interface CompareVerdictOptions {
  readonly interrupted?: boolean;
  /** The interrupt's exit code (129 SIGHUP, 130 SIGINT, 143 SIGTERM); default 130. */
  readonly interruptedExit?: ExitCode | undefined;
  /** Said after the significant changes: `75 requests, 75 ok`. */
  readonly detail?: string;
  /** The pairwise lines of a run's own sets (eval of two or more sets). */
  readonly comparisons?: readonly string[];
  /** The tables' "best" marks from those pairs (compare/pairwise bestMarks). */
  readonly best?: readonly BestMark[];
  /** Which model answered (metrics/model-notes), for every report and the viewer. */
  readonly models?: ModelNotes | undefined;
}

/** The gates decide; the significant changes follow the decision, never lead it. */
export function compareVerdict(
  c: Comparison | null,
  gates: readonly GateVerdict[],
  o: CompareVerdictOptions = {},
): Verdict {
  const detail = [o.detail ?? '', significantChanges(c)].filter(Boolean).join(' · ');
  return decide({
    gates,
    interrupted: o.interrupted ?? false,
    interruptedExit: o.interruptedExit,
    detail,
    comparisons: o.comparisons ?? [],
    best: o.best,
    models: o.models,
  });
}
