import { describe, expect, it } from 'vitest';
import { fixtureInput, fixtureRecords, hasControlChars, NASTY_QUESTION } from '../../../test/fixtures/reports/fixture.js';
import { reportColumns } from '../comparison.js';
import { createRowsCollector, rowsOf, type ReportInput, type ReportRow } from '../report-input.js';
import { renderReportHtml } from './report-html.js';
import { MAX_GRID_QUESTIONS } from './pass-grid.js';
import { decide } from '../../verdict/index.js';

const html = renderReportHtml(fixtureInput());
/** The markup of one chart's <figure>. */
const chart = (name: string, page = html) => {
  const start = page.indexOf(`<figure class="chart" data-chart="${name}">`);
  if (start === -1) throw new Error(`no chart ${name}`);
  return page.slice(start, page.indexOf('</figure>', start));
};
const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

describe('report.html', () => {
  it('is one self-contained page: no script, no URL, nothing to fetch', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/https?:|\/\/[a-z]/i);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|\shref=|url\(|@import/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"`);
    expect(html).toContain('<title>Fixture run</title>');
  });

  it('has each chart once, in an accessible figure', () => {
    for (const name of ['ttfp-cdf', 'total-cdf', 'citation-scores', 'pass-grid', 'outcomes']) {
      expect(count(html, new RegExp(`data-chart="${name}"`, 'g'))).toBe(1);
      const figure = chart(name);
      expect(figure).toMatch(/<figcaption>[^<]+<\/figcaption>/);
      expect(figure).toMatch(/<svg( class="natural")? role="img" aria-label="[^"]{20,}"/);
    }
  });

  it('draws the marks of every chart', () => {
    expect(count(chart('ttfp-cdf'), /<path class="cdf-line"/g)).toBe(4); // fast (full) has no TTFP
    expect(chart('ttfp-cdf')).not.toContain('(no data)');
    expect(chart('ttfp-cdf')).toContain('Not drawn: no ok request of fast (full) has ttfp_ms.');
    expect(count(chart('ttfp-cdf'), /<li class="legend-item">/g)).toBe(4);
    expect(count(chart('total-cdf'), /<path class="cdf-line"/g)).toBe(5);
    expect(count(chart('citation-scores'), /<rect class="score-bar"/g)).toBe(14); // 5 columns × 3, less one N/A
    expect(count(chart('citation-scores'), /<path class="ci-bar"/g)).toBe(14);
    expect(count(chart('pass-grid'), /<rect class="grid-cell-box"/g)).toBe(20);
    expect(count(chart('outcomes'), /<rect class="outcome-bar"/g)).toBe(7);
  });

  it('colours each grid cell by its state, with a title saying why', () => {
    const grid = chart('pass-grid');
    // duo's mini model passes on its own answer although the other model failed (metrics/pass).
    expect(count(grid, /data-state="pass"/g)).toBe(11);
    expect(count(grid, /data-state="fail"/g)).toBe(3);
    expect(count(grid, /data-state="error"/g)).toBe(2);
    expect(count(grid, /data-state="none"/g)).toBe(4); // duo ran q1 and q2 only
    expect(grid).toContain('q2 · fast (stream): failed\nmissing phrases: &quot;refund &lt;policy&gt;&quot;');
  });

  it('never hides a row or a column: no scroll box, cells wrap, tables of many columns stack on a narrow page', () => {
    expect(html).toMatch(/\.table-wrap \{ max-width: 100%; \}/);
    expect(html.match(/[^\n]*overflow(-[xy])?: (auto|scroll)[^\n]*/g)).toEqual(['.table-wrap:not(:has(table.stackable)) { overflow-x: auto; }']);
    expect(html).not.toMatch(/max-height/);
    expect(html).toMatch(/\.table-wrap thead th \{ position: sticky; top: 0;/);
    expect(count(html, /<div class="table-wrap"><table class="[a-z]+ stackable">/g)).toBe(2);
    // fixture: 5 columns and the row labels; the page stacks them under 56 + 170 + 5 × 110 px.
    expect(html).toContain('@media (max-width: 776px)');
    expect(html).toMatch(/<td data-label="fast \(stream\)">/);
  });

  it('lists the worst questions as report.md does, in the same order', () => {
    const input = fixtureInput();
    const entries = [...html.matchAll(/<li class="worst-entry" data-question="([^"]+)" data-set="([^"]+)" data-mode="([a-z]+)" data-repeat="(\d+)">/g)];
    expect(entries.map((m) => `${m[1]}|${m[2]}|${m[3]}|${m[4]}`)).toEqual(input.worst.map((r) => `${r.question_id}|${r.set}|${r.mode}|${r.repeat}`));
    expect(html).toContain('<h3>1. q2 · duo (stream, repeat 0)</h3>');
  });

  it('names the grid columns after their sets, above the grid', () => {
    const grid = chart('pass-grid');
    const labels = [...grid.matchAll(/<text class="col-label"[^>]*>([^<]*)<title>/g)].map((m) => m[1]);
    expect(labels).toEqual(reportColumns(fixtureInput().summary).map((c) => c.label));
    expect(grid).not.toContain('column-key');
  });

  it('draws N/A as "–", never as a bar of 0', () => {
    expect(chart('citation-scores')).toContain('<text class="na"');
    expect(chart('citation-scores')).toContain('fast (full): citation precision N/A');
    expect(html).toMatch(/<th scope="row">TTFP p50<\/th><td data-label="[^"]+">40.0 ms<\/td><td data-label="[^"]+">–<\/td>/);
  });

  it('highlights only the cells the verdict marks best (significant by the pairs of sets), never the lowest value alone', () => {
    const plain = (page: string) => page.replace(/ data-label="[^"]*"/g, '');
    expect(plain(html)).toContain('<th scope="row">total p95</th><td>700 ms</td><td>1000 ms</td><td>1700 ms</td><td>650 ms</td><td>1400 ms</td>');
    const verdict = decide({ best: [{ figure: 'total_ms.p95', mode: 'stream', model_index: 0, set: 'duo' }] });
    const marked = renderReportHtml({ ...fixtureInput(), verdict });
    expect(plain(marked)).toContain('<th scope="row">total p95</th><td>700 ms</td><td>1000 ms</td><td>1700 ms</td><td class="best"><strong>650 ms</strong></td><td>1400 ms</td>');
    expect(plain(marked)).toMatch(/<th scope="row">requests<\/th>(<td>\d+<\/td>){5}<\/tr>/);
  });

  it('says which model answered: a different model as a banner, the unconfirmed ones in one note', () => {
    const input = fixtureInput();
    input.summary.models = [
      { set: 'fast', asked: ['openai:gpt-4o-mini'], answered: [] },
      { set: 'accurate', asked: ['bedrock:claude-3'], answered: ['gpt-4o'] },
    ];
    const page = renderReportHtml(input);
    expect(page).toContain('<p class="banner model-warning" role="alert">Model: set accurate: asked for bedrock:claude-3, but the service says gpt-4o answered</p>');
    expect(page).toContain('<p class="note model-note">Model: the service does not confirm which model answered single-model requests; asked: fast=openai:gpt-4o-mini.</p>');
  });

  it('escapes text from the dataset and the service', () => {
    expect(html).not.toContain('<b>x</b>');
    expect(html).toContain('Is &lt;b&gt;x&lt;/b&gt; &amp; &quot;y&quot; | &#39;z&#39;');
    expect(html).not.toContain(NASTY_QUESTION.slice(-8));
    expect(hasControlChars(html)).toBe(false);
  });

  it('stays small for a 20,000-request run, and the grid says what it left out', () => {
    const input = fixtureInput();
    const columns = reportColumns(input.summary);
    const rows = createRowsCollector();
    const [first] = rowsOf(fixtureRecords()[0]!);
    for (let i = 0; i < 20_000; i += 1) {
      const c = columns[i % columns.length]!;
      const q = `q${Math.floor(i / columns.length)}`;
      const row: ReportRow = { ...first!, key: `${q}|${c.set}|${c.mode}|0`, question_id: q, set: c.set, mode: c.mode, model_index: c.model_index, model_name: c.model_name, ttfp_ms: 20 + (i % 997) / 7, total_ms: 500 + (i % 991), pass: i % 3 > 0 };
      rows.add(row);
      if (c.model_index !== null) rows.add({ ...row, model_index: null, model_name: null });
    }
    const big = renderReportHtml({ ...input, ...rows.finish() } satisfies ReportInput);
    // The grid bounds the page; the worst questions (at most 10 answers of 400 characters) add a bounded few kB.
    expect(big.length).toBeLessThan(620_000);
    expect(count(chart('pass-grid', big), /<rect class="grid-cell-box"/g)).toBe(MAX_GRID_QUESTIONS * columns.length);
    expect(chart('pass-grid', big)).toContain(`${4000 - MAX_GRID_QUESTIONS} more questions are not shown`);
  });
});
