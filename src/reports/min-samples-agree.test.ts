/**
 * Issue 22 items 3 and 5: one minimum-sample rule and one "best" rule. The same run rendered for
 * the terminal and report.md/report.html (reports/comparison) and for the viewer (viewer/model +
 * Overview's enoughValues and bestOf) greys the same figures and marks the same best; and a best
 * mark is given only where the paired comparison of the sets (compare/pairwise, the test behind
 * the verdict's pair lines) finds the difference significant.
 */
import { describe, expect, it } from 'vitest';
import { bestMarks, compareSets } from '../compare/pairwise.js';
import { createRunCollector } from '../compare/run-data.js';
import { createSummarizer } from '../metrics/summarize.js';
import { makeRecord } from '../metrics/test-records.js';
import { buildViewData, createViewCollector } from '../viewer/model.js';
import { bestOf, enoughValues } from '../viewer/ui/best.js';
import { decide } from '../verdict/index.js';
import { comparisonRows, reportColumns } from './comparison.js';

/**
 * Two sets, `n` questions each: `fast` is much quicker to its first token and streams more
 * characters per second (significant); its total time is 1 ms longer (higher, not significant).
 */
function records(n: number) {
  return ['slow', 'fast'].flatMap((set, s) => Array.from({ length: n }, (_, i) => makeRecord({
    question_id: `q${i}`, set, ttft_ms: (s === 0 ? 400 : 200) + i, ttfp_ms: (s === 0 ? 300 : 150) + i, total_ms: 1000 + i + s, output_chars_per_s: (s === 0 ? 300 : 600) + i,
  })));
}

const ROWS: ReadonlyArray<[string, string]> = [['TTFT p50', 'ttft_ms.p50'], ['TTFT p95', 'ttft_ms.p95'], ['output chars/s p50', 'output_chars_per_s.p50'], ['total p50', 'total_ms.p50']];
const SETS = ['slow', 'fast'];

describe.each([10, 30, 250])('n = %i requests per set', (n) => {
  it('the report table and the viewer grey the same figures and mark best only what the pairs found significant', () => {
    const all = records(n);
    const summarizer = createSummarizer({ setOrder: SETS });
    const run = createRunCollector({ setOrder: SETS });
    const collector = createViewCollector({ setOrder: SETS });
    for (const r of all) {
      summarizer.add(r);
      run.add(r);
      collector.add(r);
    }
    // The verdict's marks, decided once from the pairs of sets, as app/eval/eval-verdict does.
    const pairs = compareSets(run.finish('run'), { sets: SETS, resamples: 400 });
    const verdict = decide({ comparisons: [], best: bestMarks(pairs) });
    const rows = comparisonRows(reportColumns(summarizer.finish()), verdict.best);
    const view = buildViewData({ runs: [{ name: 'run', source: 'run', collected: collector.finish('run', 0), reviews: 0, comparison: null, verdict }], mode: 'file', generatedBy: 't', details: { source: 'server' } });
    const row = (label: string) => rows.find((r) => r.label === label)!;
    // Not vacuous: a p95 is greyed below 200 requests and judged (fast best) from there; a p50 from 20.
    expect(row('TTFT p95').few).toEqual(n < 200 ? [true, true] : [false, false]);
    expect(row('TTFT p95').best).toEqual(n < 200 ? [false, false] : [false, true]);
    expect(row('TTFT p50').best).toEqual(n < 20 ? [false, false] : [false, true]);
    expect(row('output chars/s p50').best).toEqual(n < 20 ? [false, false] : [false, true]);
    // slow's total is lower, but not significantly: no clear winner, no mark (a higher value alone once won).
    expect(row('total p50').values[0]).toBeLessThan(row('total p50').values[1]!);
    expect(row('total p50').best).toEqual([false, false]);
    for (const [label, name] of ROWS) {
      const index = view.figures.findIndex((f) => f.name === name);
      const figure = view.figures[index]!;
      const cells = view.columns.map((c) => c.figures[index] ?? null);
      expect({ name, few: cells.map((c) => c !== null && !enoughValues(figure, c)) }).toEqual({ name, few: row(label).few });
      expect({ name, best: bestOf(figure, view.columns, cells, view.runs) }).toEqual({ name, best: row(label).best });
    }
  });
});
