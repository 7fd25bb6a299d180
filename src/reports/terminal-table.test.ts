import { describe, expect, it } from 'vitest';
import { fixtureSummary } from '../../test/fixtures/reports/fixture.js';
import { renderTerminalTable } from './terminal-table.js';

const widest = (text: string) => Math.max(...text.split('\n').map((line) => [...line].length));

describe('renderTerminalTable fits a width (issue 27 §5)', () => {
  const summary = fixtureSummary();
  const full = renderTerminalTable(summary);

  it('no width (a pipe, a file): the whole table, as before', () => {
    expect(full).toContain('citation recall');
    expect(full).not.toContain('headline figures only');
  });

  it('a width the whole table fits: the same table', () => {
    expect(renderTerminalTable(summary, [], { width: widest(full) + 40 })).toBe(full);
  });

  it.each([100, 80, 60])('at %i columns: every line fits, sets as rows, a pointer to every figure', (width) => {
    const text = renderTerminalTable(summary, [], { width, fullReport: 'run/report.md' });
    expect(widest(text)).toBeLessThanOrEqual(width);
    expect(text.replace(/\n +/g, ' ')).toMatch(new RegExp(`the headline figures only \\(to fit ${width} columns\\); all \\d+ in run/report\\.md`));
    // The pass rate, the first headline figure, always fits here; the set labels lead the rows.
    expect(text.split('\n')[0]).toContain('pass rate');
    expect(text).not.toContain('citation recall');
  });
});
