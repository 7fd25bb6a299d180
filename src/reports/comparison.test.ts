import { describe, expect, it } from 'vitest';
import { fixtureSummary, mean, stats } from '../../test/fixtures/reports/fixture.js';
import type { Summary } from '../records/summary.js';
import type { BestMark } from '../verdict/index.js';
import { categoryRows, comparisonRows, reportColumns } from './comparison.js';

const rowOf = (summary: Summary, label: string) => {
  const row = comparisonRows(reportColumns(summary)).find((r) => r.label === label);
  if (!row) throw new Error(`no row ${label}`);
  return row;
};

describe('reportColumns', () => {
  it('orders sets as the run did, stream before full, and shows each model of a multi-model set', () => {
    const columns = reportColumns(fixtureSummary());
    expect(columns.map((c) => c.label)).toEqual(['fast (stream)', 'fast (full)', 'accurate (stream)', 'duo · mini (stream)', 'duo · large (stream)']);
  });

  it('names the mode only when the run used both', () => {
    const summary = fixtureSummary();
    summary.groups = summary.groups.filter((g) => g.mode === 'stream');
    expect(reportColumns(summary).map((c) => c.label)).toEqual(['fast', 'accurate', 'duo · mini', 'duo · large']);
  });
});

describe('comparisonRows', () => {
  it('marks no cell without the verdict\'s marks: a higher value alone is no winner', () => {
    for (const row of comparisonRows(reportColumns(fixtureSummary()))) expect({ label: row.label, best: row.best.some(Boolean) }).toEqual({ label: row.label, best: false });
  });

  it('marks the cells whose set, mode and model the verdict names best on the row\'s figure', () => {
    const summary = fixtureSummary();
    const best: BestMark[] = [
      { figure: 'citation_f1', mode: 'stream', model_index: null, set: 'accurate' },
      { figure: 'ttfp_ms.p50', mode: 'stream', model_index: 0, set: 'duo' },
      // Another mode, another model: not these columns.
      { figure: 'citation_f1', mode: 'full', model_index: null, set: 'duo' },
      { figure: 'ttfp_ms.p50', mode: 'stream', model_index: 1, set: 'fast' },
    ];
    const row = (label: string) => comparisonRows(reportColumns(summary), best).find((r) => r.label === label)!;
    expect(row('citation F1').best).toEqual([false, false, true, false, false]);
    expect(row('TTFP p50').best).toEqual([false, false, false, true, false]);
    // A row of counts has no figure to test: never marked.
    expect(row('invalid citations').best.some(Boolean)).toBe(false);
  });

  it('shows N/A as "–", never 0, and does not count it as best or worst', () => {
    const row = rowOf(fixtureSummary(), 'TTFP p95');
    expect(row.values[1]).toBeNull();
    expect(row.cells[1]).toBe('–');
    expect(row.best[1]).toBe(false);
  });

  it('lists only the outcome classes that occurred', () => {
    const labels = comparisonRows(reportColumns(fixtureSummary())).map((r) => r.label);
    expect(labels).toContain('http_error');
    expect(labels).toContain('stream_error');
    expect(labels).not.toContain('timeout');
    expect(rowOf(fixtureSummary(), 'http_error').cells).toEqual(['1', '0', '0', '0', '0']);
  });

  it('greys a figure from too few samples with its n and never marks it best (one ok request among 429s)', () => {
    const summary = fixtureSummary();
    // fast (stream): one ok request left, with a perfect precision; accurate: 40 questions, lower.
    summary.groups[0]!.scores.citation_precision = mean(1, 0, 1);
    summary.groups[2]!.scores.citation_precision = mean(0.8);
    summary.groups[2]!.latency.ttfp_ms = stats(92, 99, 75);
    const precision = rowOf(summary, 'citation precision');
    expect(precision.cells[0]).toBe('1.000 (n=1)');
    expect(precision.few[0]).toBe(true);
    expect(comparisonRows(reportColumns(summary), [{ figure: 'citation_precision', mode: 'stream', model_index: null, set: 'fast' }]).find((r) => r.label === 'citation precision')!.best[0]).toBe(false);
    // A p95 from 75 samples is greyed (it needs 200); a p50 from 75 is judged (it needs 20).
    expect(rowOf(summary, 'TTFP p95').cells[2]).toBe('99.0 ms (n=75)');
    expect(rowOf(summary, 'TTFP p95').few[2]).toBe(true);
    expect(rowOf(summary, 'TTFP p50').few[2]).toBe(false);
    // Counts are never greyed.
    expect(rowOf(summary, 'invalid citations').few.some(Boolean)).toBe(false);
  });

  it('prints the pass rate with its interval', () => {
    expect(rowOf(fixtureSummary(), 'pass rate [95% CI]').cells[0]).toBe('50% (20–80%)');
  });
});

it('categoryRows lists categories in natural order with pass rate and recall per column', () => {
  const rows = categoryRows(reportColumns(fixtureSummary()));
  expect(rows.map((r) => r.category)).toEqual(['billing', 'setup']);
  expect(rows[0]!.pass.map((p) => p?.mean)).toEqual([0.5, 0.75, 0.75, 1, 0.5]);
  expect(rows[0]!.recall[0]).toBe(0.75);
});

it('the latency rows lead with TTFT, TTFP second (issue 27)', () => {
  const labels = comparisonRows(reportColumns(fixtureSummary())).map((r) => r.label).filter((l) => /^(TTFT|TTFP|total) p/.test(l));
  expect(labels).toEqual(['TTFT p50', 'TTFT p95', 'TTFP p50', 'TTFP p95', 'total p50', 'total p95']);
});
