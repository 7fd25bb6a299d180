/**
 * report.html reads whole at 1,400 and 800 px (issue 27, item 7), checked on the layout a browser
 * computes, not on pixels: every cell of the comparison inside the viewport, no box that scrolls
 * and so hides table rows, no chart text outside its SVG's viewBox, the verdict above the fold and
 * the worst questions those of report.md, in its order. The report is a real one: a small eval of
 * three sets (one of two models) against the in-process simulator. The process's one chromium
 * (test/helpers/browser), one page load per width. Skipped, saying why, where /usr/bin/chromium is absent.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { renderReportHtml } from '../../src/reports/html/report-html.js';
import { loadCorpus, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { TOKENS } from '../helpers/start-sim.js';
import { fixtureInput } from '../fixtures/reports/fixture.js';
import { hasChromium, sharedBrowser, warnWithoutChromium } from '../helpers/browser.js';

warnWithoutChromium('report-html-layout');

const SETS = {
  sets: [
    { name: 'fast', llm_override: { model_provider: 'openai', model_version: 'gpt-4o-mini' } },
    { name: 'accurate', llm_override: { model_provider: 'openai', model_version: 'gpt-4o' } },
    {
      name: 'duo',
      llm_overrides: [
        { model_provider: 'openai', model_version: 'gpt-4o-mini' },
        { model_provider: 'openai', model_version: 'gpt-4o' },
      ],
    },
  ],
};

/** report.md's worst-question headings ("1. q2 · duo (stream, repeat 0)"), markdown escapes undone. */
function mdWorst(md: string): string[] {
  const section = md.slice(md.indexOf('## Worst questions'), md.indexOf('## How to read this'));
  return [...section.matchAll(/^### (.+)$/gm)].map((m) => m[1]!.replace(/\\(.)/g, '$1'));
}

/** What the page's layout says; every list must be empty. Runs in the page. */
function layout() {
  const table = document.querySelector('table.comparison')!;
  const outside = Array.from(table.querySelectorAll('th, td'))
    .filter((c) => {
      const r = c.getBoundingClientRect();
      return r.left < 0 || r.right > innerWidth + 0.5;
    })
    .map((c) => c.textContent);
  // A box narrower or shorter than its content that hides it (a scroll box, a clip) around a table.
  const hiding = Array.from(document.querySelectorAll<HTMLElement>('main *'))
    .filter((e) => e.querySelector('table') !== null || e.closest('table') !== null)
    .filter((e) => {
      const style = getComputedStyle(e);
      const clipsX = style.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1;
      const clipsY = style.overflowY !== 'visible' && e.scrollHeight > e.clientHeight + 1;
      return clipsX || clipsY;
    })
    .map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
  const clipped: string[] = [];
  for (const svg of Array.from(document.querySelectorAll<SVGSVGElement>('figure svg[viewBox]'))) {
    const box = svg.viewBox.baseVal;
    const toSvg = svg.getScreenCTM()!.inverse();
    for (const text of Array.from(svg.querySelectorAll<SVGTextElement>('text'))) {
      const b = text.getBBox();
      const toScreen = text.getScreenCTM()!;
      const corners = [
        [b.x, b.y],
        [b.x + b.width, b.y],
        [b.x, b.y + b.height],
        [b.x + b.width, b.y + b.height],
      ].map(([x, y]) => new DOMPoint(x, y).matrixTransform(toScreen).matrixTransform(toSvg));
      const xs = corners.map((p) => p.x);
      const ys = corners.map((p) => p.y);
      const inside =
        Math.min(...xs) >= box.x - 0.5 &&
        Math.max(...xs) <= box.x + box.width + 0.5 &&
        Math.min(...ys) >= box.y - 0.5 &&
        Math.max(...ys) <= box.y + box.height + 0.5;
      if (!inside) clipped.push(`${svg.closest('figure')?.dataset.chart}: ${text.textContent}`);
    }
  }
  const drawn = Array.from(document.querySelectorAll<SVGSVGElement>('figure svg[viewBox]:not(.natural)')).map((s) =>
    s.getBoundingClientRect(),
  );
  const charts = drawn.map((r) => r.width);
  const content = document.querySelector('main')!.getBoundingClientRect().width;
  return {
    outside,
    hiding,
    clipped,
    cells: table.querySelectorAll('th, td').length,
    verdictTop: document.querySelector('section.verdict')?.getBoundingClientRect().top ?? Infinity,
    // The narrowest chart's share of the content width (two side by side fill it at 1,400 px).
    chartShare: Math.min(...charts) / content,
    chartCount: drawn.length,
    chartRows: new Set(drawn.map((r) => Math.round(r.top))).size,
    pageScroll: document.documentElement.scrollWidth - innerWidth,
    worst: Array.from(document.querySelectorAll('li.worst-entry h3')).map((h) => h.textContent ?? ''),
  };
}

describe.skipIf(!hasChromium)('report.html at 1,400 and 800 px in headless chromium', () => {
  let browser: Browser;
  let sim: RunningSimulator;
  let dir: string;
  let url: string;
  let md: string;
  beforeAll(async () => {
    // Chromium starts while the eval runs (each takes about a second).
    const launching = sharedBrowser();
    dir = mkdtempSync(join(tmpdir(), 'chatbench-layout-'));
    sim = await startSimulator({ corpus: await loadCorpus(), config: { chat: { time_scale: 0.005 } } });
    const sample = readFileSync(join(import.meta.dirname, '../../datasets/sample.csv'), 'utf8').split('\n');
    writeFileSync(join(dir, 'questions.csv'), `${sample.slice(0, 6).join('\n')}\n`);
    writeFileSync(join(dir, 'sets.json'), JSON.stringify(SETS));
    const fake = createFakeIo({ cwd: dir });
    const argv = [
      'eval',
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      'questions.csv',
      '--sets-file',
      'sets.json',
      '--out',
      'run',
    ];
    const code = await main(argv, fake.io);
    browser = await launching;
    if (code !== 0) throw new Error(`eval exited ${code}: ${fake.stderr()}`);
    url = pathToFileURL(join(dir, 'run', 'report.html')).href;
    md = readFileSync(join(dir, 'run', 'report.md'), 'utf8');
  }, 30_000);
  afterAll(async () => {
    await sim?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    { width: 1400, chartsSideBySide: true },
    { width: 800, chartsSideBySide: false },
  ])(
    '$width px: every column and row of the comparison, whole chart labels, the verdict above the fold, the worst questions',
    async ({ width, chartsSideBySide }) => {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      await page.goto(url, { waitUntil: 'load' });
      const seen = await page.evaluate(layout);
      await page.close();

      expect(seen.cells).toBeGreaterThan(5 * 20); // 4 columns and the row labels, over 20 rows
      expect(seen.outside).toEqual([]);
      expect(seen.hiding).toEqual([]);
      expect(seen.clipped).toEqual([]);
      expect(seen.pageScroll).toBe(0);
      expect(seen.verdictTop).toBeLessThan(900);
      // The charts use the width: two to a row that share it, or one that fills it.
      expect(seen.chartShare).toBeGreaterThan(chartsSideBySide ? 0.45 : 0.95);
      if (chartsSideBySide) expect(seen.chartRows).toBeLessThan(seen.chartCount);
      else expect(seen.chartRows).toBe(seen.chartCount);
      const worst = mdWorst(md);
      expect(worst.length).toBeGreaterThan(0);
      expect(seen.worst).toEqual(worst);
    },
  );

  it('stacks a table too wide to wrap: a line per column, each cell inside the page', async () => {
    // The fixture's 5 columns stack under 776 px (reports/html/style stackBelow).
    const file = join(dir, 'fixture.html');
    writeFileSync(file, renderReportHtml(fixtureInput()));
    const page = await browser.newPage({ viewport: { width: 700, height: 900 } });
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    const seen = await page.evaluate(layout);
    const stacked = await page.evaluate(() => {
      const cell = document.querySelector('table.comparison tbody td')!;
      return { display: getComputedStyle(cell).display, label: getComputedStyle(cell, '::before').content };
    });
    await page.close();
    expect(stacked).toEqual({ display: 'flex', label: '"fast (stream)"' });
    expect(seen.outside).toEqual([]);
    expect(seen.hiding).toEqual([]);
    expect(seen.clipped).toEqual([]);
    expect(seen.pageScroll).toBe(0);
  });
});
