/**
 * @module reports/summary-json
 * summary.json: the Summary as pretty JSON with a stable key order, so two runs (or a run and its
 * `chatbench report` rebuild) diff cleanly whatever order records arrived in.
 */
import { OUTCOMES } from '../records/record.js';
import { SummarySchema, type GroupFigures, type Summary } from '../records/summary.js';
import { naturalCompare } from './format.js';
import type { ReportInput } from './report-input.js';

/**
 * Renders `input.summary`. Objects of the schema keep the schema's field order; the open maps
 * (outcome counts in OUTCOMES order, scores alphabetically, categories in natural order) are
 * re-keyed so insertion order never shows. Group order is the summarizer's and is kept.
 */
export function renderSummaryJson(input: Pick<ReportInput, 'summary'>): string {
  return `${JSON.stringify(canonicalSummary(input.summary), null, 2)}\n`;
}

/** The Summary re-keyed into its stable order (see renderSummaryJson). */
export function canonicalSummary(summary: Summary): Summary {
  const parsed = SummarySchema.parse(summary);
  return {
    ...parsed,
    run: { ...parsed.run, outcomes: sortOutcomes(parsed.run.outcomes) },
    groups: parsed.groups.map((g) => ({
      ...canonicalFigures(g),
      by_category: Object.fromEntries(
        Object.keys(g.by_category)
          .sort(naturalCompare)
          .map((category) => [category, canonicalFigures(g.by_category[category]!)]),
      ),
    })),
  };
}

function canonicalFigures<G extends GroupFigures>(figures: G): G {
  return {
    ...figures,
    outcomes: sortOutcomes(figures.outcomes),
    scores: Object.fromEntries(Object.keys(figures.scores).sort().map((name) => [name, figures.scores[name] ?? null])),
  };
}

function sortOutcomes<T extends Partial<Record<(typeof OUTCOMES)[number], number>>>(counts: T): T {
  return Object.fromEntries(OUTCOMES.filter((o) => o in counts).map((o) => [o, counts[o]])) as T;
}
