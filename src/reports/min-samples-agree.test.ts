/**
 * Issue 22 item 5: one minimum-sample rule. The same run rendered for the terminal and report.md/
 * report.html (reports/comparison) and for the viewer (viewer/model + Overview's enoughValues)
 * greys the same figures and marks the same best.
 */
import { describe, expect, it } from 'vitest';
import { createSummarizer } from '../metrics/summarize.js';
import { makeRecord } from '../metrics/test-records.js';
import { buildViewData, createViewCollector } from '../viewer/model.js';
import { bestOf, enoughValues } from '../viewer/ui/best.js';
import { comparisonRows, reportColumns } from './comparison.js';

/** Two sets, `n` questions each: `fast` is quicker and streams more characters per second. */
function records(n: number) {
  return ['slow', 'fast'].flatMap((set, s) => Array.from({ length: n }, (_, i) => makeRecord({
    question_id: `q${i}`, set, ttft_ms: (s === 0 ? 400 : 200) + i, ttfp_ms: (s === 0 ? 300 : 150) + i, total_ms: 1000 + i, output_chars_per_s: (s === 0 ? 300 : 600) + i,
  })));
}

const ROWS: ReadonlyArray<[string, string]> = [['TTFT p50', 'ttft_ms.p50'], ['TTFT p95', 'ttft_ms.p95'], ['output chars/s p50', 'output_chars_per_s.p50']];

describe.each([10, 30, 250])('n = %i requests per set', (n) => {
  it('the report table and the viewer grey and mark best the same figures', () => {
    const all = records(n);
    const summarizer = createSummarizer({ setOrder: ['slow', 'fast'] });
    for (const r of all) summarizer.add(r);
    const rows = comparisonRows(reportColumns(summarizer.finish()));
    const collector = createViewCollector({ setOrder: ['slow', 'fast'] });
    for (const r of all) collector.add(r);
    const view = buildViewData({ runs: [{ name: 'run', source: 'run', collected: collector.finish('run', 0), reviews: 0, comparison: null }], mode: 'file', generatedBy: 't', details: { source: 'server' } });
    // Not vacuous: a p95 is greyed below 200 requests and judged (fast best) from there.
    expect(rows.find((r) => r.label === 'TTFT p95')!.few).toEqual(n < 200 ? [true, true] : [false, false]);
    expect(rows.find((r) => r.label === 'TTFT p95')!.best).toEqual(n < 200 ? [false, false] : [false, true]);
    for (const [label, name] of ROWS) {
      const row = rows.find((r) => r.label === label)!;
      const index = view.figures.findIndex((f) => f.name === name);
      const figure = view.figures[index]!;
      const cells = view.columns.map((c) => c.figures[index] ?? null);
      expect({ name, few: cells.map((c) => c !== null && !enoughValues(figure, c)) }).toEqual({ name, few: row.few });
      expect({ name, best: bestOf(figure, cells) }).toEqual({ name, best: row.best });
    }
  });
});
