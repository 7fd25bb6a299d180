import { describe, expect, it } from 'vitest';
import { sparkline } from './sparkline.js';
import { renderTrendHtml } from './trend-html.js';
import type { TrendPoint } from './queries.js';

describe('sparkline', () => {
  it.each([
    [[], ''],
    [[5], '▄'],
    [[2, 2, 2], '▄▄▄'],
    [[0, 7], '▁█'],
    [[0, 1, 2, 3, 4, 5, 6, 7], '▁▂▃▄▅▆▇█'],
    [[9, 1, 5], '█▁▅'],
  ])('%j → %s', (values, line) => {
    expect(sparkline(values)).toBe(line);
  });
});

describe('renderTrendHtml', () => {
  const point = (id: string, value: number, set = 'fast'): TrendPoint => ({
    run_dir: `/r/${id}`,
    id,
    ended_at: `2026-01-0${id.slice(1)}`,
    set_name: set,
    mode: 'stream',
    value,
    ci_low: value - 0.1,
    ci_high: value + 0.1,
    n: 10,
  });
  it('draws a line per set × mode with interval bars, and links each run to its report', () => {
    const html = renderTrendHtml(
      'citation_recall',
      [point('r1', 0.8), point('r1', 0.6, 'slow'), point('r2', 0.7)],
      (dir) => `..${dir}/report.html`,
    );
    expect(html.match(/<path d="M/g)).toHaveLength(2);
    expect(html.match(/<circle/g)).toHaveLength(3);
    expect(html).toContain('href="../r/r2/report.html"');
    expect(html).toContain('<td>[0.7, 0.9]</td>'.replace('0.7, 0.9', `${0.8 - 0.1}, ${0.8 + 0.1}`));
  });
});
