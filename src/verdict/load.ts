/**
 * @module verdict/load
 * The verdict of a load run (`chatbench load`, `report` and `merge` of a load run): its SLOs and
 * its gates, the interrupt, the banner. One call, so the terminal, `--json`, report.md and
 * report.html of one run cannot tell different stories.
 */
import type { LoadSummary } from '../records/load-summary.js';
import { decide, type GateOutcome, type Verdict } from './verdict.js';

export function loadRunVerdict(
  summary: Pick<LoadSummary, 'slos' | 'banner' | 'run'>,
  gates: readonly GateOutcome[],
): Verdict {
  return decide({
    slos: summary.slos,
    gates,
    interrupted: summary.run.interrupted,
    banners: summary.banner,
    detail: `${summary.run.requests} requests`,
  });
}
