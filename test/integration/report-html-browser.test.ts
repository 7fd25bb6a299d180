/**
 * report.html in a real browser (Debian's chromium driven by playwright-core): it loads from a
 * file with no console error and no network request at all, and every chart has its marks.
 * Also parses junit.xml with the browser's XML parser, the strictest one at hand.
 * Skipped, saying why, where /usr/bin/chromium is absent (`.ci/run` installs it with apt-get).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderJunitXml } from '../../src/reports/junit-xml.js';
import { renderReportHtml } from '../../src/reports/html/report-html.js';
import { fixtureInput } from '../fixtures/reports/fixture.js';
import { hasChromium, sharedBrowser, warnWithoutChromium } from '../helpers/browser.js';

warnWithoutChromium('report-html-browser');

describe.skipIf(!hasChromium)('report.html in headless chromium', () => {
  let browser: Browser;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chatbench-html-'));
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens offline: no console error, no request but the file, every chart drawn', async () => {
    const file = join(dir, 'report.html');
    writeFileSync(file, renderReportHtml(fixtureInput()));
    const url = pathToFileURL(file).href;
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(url, { waitUntil: 'load' });

    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
    expect(await page.title()).toBe('Fixture run');
    const marks = await page.evaluate(() => {
      const count = (chart: string, selector: string) =>
        document.querySelectorAll(`[data-chart="${chart}"] ${selector}`).length;
      return {
        ttfp: count('ttfp-cdf', 'path.cdf-line'),
        total: count('total-cdf', 'path.cdf-line'),
        scores: count('citation-scores', 'rect.score-bar'),
        ci: count('citation-scores', 'path.ci-bar'),
        grid: count('pass-grid', 'rect.grid-cell-box'),
        outcomes: count('outcomes', 'rect.outcome-bar'),
        milestones: count('milestones', 'circle.milestone'),
        labelled: Array.from(document.querySelectorAll('figure svg[role="img"]')).filter(
          (s) => (s.getAttribute('aria-label') ?? '') !== '',
        ).length,
        figures: document.querySelectorAll('figure[data-chart] figcaption').length,
        drawnWidth: Math.round(
          document.querySelector('[data-chart="ttfp-cdf"] svg')?.getBoundingClientRect().width ?? 0,
        ),
      };
    });
    // 5 columns: fast (stream), fast (full: no TTFP), accurate, and the two models of duo.
    expect(marks.ttfp).toBe(4);
    expect(marks.total).toBe(5);
    expect(marks.scores).toBeGreaterThan(0);
    expect(marks.ci).toBe(marks.scores);
    expect(marks.grid).toBe(4 * 5);
    expect(marks.outcomes).toBeGreaterThan(0);
    expect(marks.milestones).toBeGreaterThan(0);
    expect(marks.labelled).toBe(6);
    expect(marks.figures).toBe(6);
    expect(marks.drawnWidth).toBeGreaterThan(300);

    mkdirSync('reports', { recursive: true });
    await page.screenshot({ path: join('reports', 'report-html-browser.png'), fullPage: true });
    await page.close();
  });

  it('junit.xml with hostile text parses as XML', async () => {
    const page = await browser.newPage();
    const xml = renderJunitXml(fixtureInput(), { gates: null, questions: 'failures' });
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        cases: doc.querySelectorAll('testcase').length,
        messages: Array.from(doc.querySelectorAll('failure, error')).map((e) => e.getAttribute('message')),
        question: doc.querySelector('testsuite testcase error')?.textContent ?? '',
      };
    }, xml);
    await page.close();
    expect(parsed.error).toBeNull();
    expect(parsed.cases).toBe(14);
    expect(parsed.messages).toContain('missing phrases: "refund <policy>"');
    expect(parsed.question).toContain('Is <b>x</b> & "y"');
  });
});
