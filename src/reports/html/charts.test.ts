import { describe, expect, it } from 'vitest';
import { fixtureInput } from '../../../test/fixtures/reports/fixture.js';
import { reportColumns } from '../comparison.js';
import { CDF_POINTS, cdfPoints, renderCdfChart } from './cdf-chart.js';
import { cellState } from './pass-grid.js';
import { esc, seriesStyle } from './svg.js';

describe('cdfPoints', () => {
  it('steps from (min, 0) to (max, 1)', () => {
    expect(cdfPoints([30, 10, 20])).toEqual([[10, 0], [10, 1 / 3], [20, 2 / 3], [30, 1]]);
    expect(cdfPoints([])).toEqual([]);
    expect(cdfPoints([5])).toEqual([[5, 0], [5, 1]]);
  });

  it('thins a large sample to CDF_POINTS, keeping both ends and the order', () => {
    const values = Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 20_000);
    const points = cdfPoints(values);
    expect(points.length).toBeLessThanOrEqual(CDF_POINTS);
    expect(points[0]).toEqual([0, 0]);
    expect(points[points.length - 1]).toEqual([19_999, 1]);
    for (let i = 1; i < points.length; i += 1) {
      expect(points[i]![0]).toBeGreaterThanOrEqual(points[i - 1]![0]);
      expect(points[i]![1]).toBeGreaterThan(points[i - 1]![1]);
    }
  });
});

it('renderCdfChart says so when no request has the figure', () => {
  const input = fixtureInput();
  const full = reportColumns(input.summary).filter((c) => c.mode === 'full');
  const out = renderCdfChart(full, input.distributions, { chart: 'ttfp-cdf', figure: 'ttfp_ms', title: 'TTFP' });
  expect(out).toContain('data-chart="ttfp-cdf"');
  expect(out).toContain('No ok request has ttfp_ms.');
  expect(out).not.toContain('<svg');
});

it.each([
  { rows: [], want: 'none' },
  { rows: [{ pass: true, outcome: 'ok' }, { pass: true, outcome: 'ok' }], want: 'pass' },
  { rows: [{ pass: true, outcome: 'ok' }, { pass: false, outcome: 'timeout' }], want: 'partial' },
  { rows: [{ pass: false, outcome: 'ok' }, { pass: false, outcome: 'timeout' }], want: 'fail' },
  { rows: [{ pass: false, outcome: 'http_error' }], want: 'error' },
] as const)('cellState of $rows.length repeats is $want', ({ rows, want }) => {
  expect(cellState(rows)).toBe(want);
});

it('esc escapes markup and quotes; series past the palette get dashes', () => {
  expect(esc(`<a title="x">'&'</a>`)).toBe('&lt;a title=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  expect(seriesStyle(0)).toEqual({ colour: '#0072B2', dash: '' });
  expect(seriesStyle(7).colour).toBe('#0072B2');
  expect(seriesStyle(7).dash).not.toBe('');
});
