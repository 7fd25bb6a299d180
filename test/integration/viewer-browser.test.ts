/**
 * The viewer in a real browser (Debian's chromium through playwright-core, the process's one
 * launch: test/helpers/browser): served by `chatbench view` it loads with no console error and no request off loopback,
 * filters, searches, opens a question, follows a citation and saves a review that compare's reader
 * then counts in human_pass_rate; at 1,400 and 800 px no answer pane overflows. Then viewer.html
 * from a file URL: the same app, read-only, requesting nothing but its own file.
 * Skipped, saying why, where /usr/bin/chromium is absent.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRun } from '../../src/app/eval/compare-runs.js';
import { renderReports } from '../../src/app/eval/render-reports.js';
import { openViewRuns } from '../../src/app/shared/view-runs.js';
import { groupValue } from '../../src/compare/run-data.js';
import { readViewerBundle } from '../../src/viewer/assets.js';
import { decide } from '../../src/verdict/index.js';
import { startViewerServer, type ViewerServer } from '../../src/viewer/server.js';
import { buildTestBundle, writeViewRun } from '../helpers/view-run.js';
import { hasChromium, sharedBrowser, warnWithoutChromium } from '../helpers/browser.js';

warnWithoutChromium('viewer-browser');

/** Console errors and warnings, page errors, and every request the page made. */
function watch(page: Page): { problems: string[]; requests: string[] } {
  const seen = { problems: [] as string[], requests: [] as string[] };
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') seen.problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => seen.problems.push(`pageerror: ${e.message}`));
  page.on('request', (r) => seen.requests.push(r.url()));
  return seen;
}

/** Answer panes wider than their box, and how far the page scrolls sideways: both must be 0. */
async function overflow(page: Page): Promise<{ panes: number; overflowing: string[]; page: number }> {
  return page.evaluate(() => {
    const panes = Array.from(document.querySelectorAll<HTMLElement>('.pane'));
    const overflowing = panes
      .filter((p) => p.scrollWidth > p.clientWidth + 1 || p.getBoundingClientRect().right > innerWidth + 1)
      .map((p) => p.dataset.pane ?? '?');
    return { panes: panes.length, overflowing, page: document.documentElement.scrollWidth - innerWidth };
  });
}

describe.skipIf(!hasChromium)('the viewer in headless chromium', () => {
  let browser: Browser;
  let root: string;
  let bundleDir: string;
  let server: ViewerServer;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'chatbench-viewer-browser-'));
    bundleDir = await buildTestBundle();
    writeViewRun(root, 'current');
    // The run's verdict: fast significantly best on citation recall (its pairs of sets), and the model note.
    const verdict = decide({
      best: [{ figure: 'citation_recall', mode: 'stream', model_index: null, set: 'fast' }],
      models: {
        warnings: [],
        note: 'the service does not confirm which model answered single-model requests; asked: fast=openai:gpt-4o-mini',
      },
    });
    writeFileSync(join(root, 'current', 'verdict.json'), JSON.stringify(verdict));
    writeViewRun(root, 'base', 'baseline');
    const source = await openViewRuns({
      runs: ['current'],
      baseline: 'base',
      cwd: root,
      reviewer: 'ann',
      version: 'test',
      resamples: 200,
    });
    server = await startViewerServer({ source, bundle: await readViewerBundle(bundleDir) });
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('served: filter, search, open a question, follow a citation, save a review that compare reads back', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const seen = watch(page);
    const rows = page.locator('a.row[data-question]');
    await page.goto(`${server.url}#/questions`);
    await expect.poll(() => rows.count()).toBe(6);

    await page.locator('label', { hasText: 'result' }).locator('select').selectOption('fail');
    await expect
      .poll(() => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-question'))))
      .toEqual(['q2', 'q5']);
    await page.locator('label', { hasText: 'result' }).locator('select').selectOption('');
    await page.getByRole('searchbox').fill('about q3');
    await expect.poll(() => rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-question')))).toEqual(['q3']);
    await page.getByRole('searchbox').fill('');
    await expect.poll(() => rows.count()).toBe(6);

    await page.locator('a.row[data-question="q1"]').click();
    const first = page.locator('article.pane').first();
    await expect.poll(() => page.locator('article.pane').count()).toBe(8);
    expect(await first.locator('h3').textContent()).toBe('fast (stream)');
    expect(await first.textContent()).toContain('Names the policy but not the number of days.');

    await first.locator('button.marker', { hasText: '[1]' }).click();
    const cited = first.locator('li[data-cite="1"]');
    await expect.poll(() => cited.getAttribute('class')).toContain('target');
    expect(await cited.textContent()).toContain('doc-q1');
    expect(await cited.textContent()).toContain('expected');
    expect(await first.locator('li[data-cite="2"]').textContent()).toContain('invalid');

    await first.locator('textarea').fill('right document, right answer');
    await first.getByRole('button', { name: 'Pass' }).click();
    await expect.poll(() => first.locator('.review-current').textContent()).toContain('pass by ann');
    const run = await loadRun(join(root, 'current'));
    expect(groupValue(run, { set: 'fast', mode: 'stream', model_index: null }, 'human_pass_rate')).toBe(1);

    mkdirSync('reports', { recursive: true });
    for (const width of [1400, 800]) {
      await page.setViewportSize({ width, height: 900 });
      const o = await overflow(page);
      expect(o.panes).toBe(8);
      expect(o.overflowing).toEqual([]);
      expect(o.page).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join('reports', `viewer-question-${width}.png`), fullPage: false });
    }

    await page.goto(`${server.url}#/baseline`);
    const broken = page.locator('.changes.broken .change[data-change="q2"]').first();
    await expect.poll(() => broken.locator('.side .answer').count()).toBe(2);
    await page.goto(`${server.url}#/overview`);
    // Best only where the verdict marks it; the model note under the verdict.
    await expect.poll(() => page.locator('tr[data-figure="citation_recall"] td.best').count()).toBe(1);
    expect(await page.locator('td.best').count()).toBe(1);
    expect(await page.locator('.verdict .model-note').textContent()).toContain('asked: fast=openai:gpt-4o-mini');
    await page.locator('tr[data-figure="citation_recall"] th a').click();
    await expect.poll(() => page.locator('p.count').textContent()).toContain('sorted by citation_recall');

    expect(seen.problems).toEqual([]);
    expect(seen.requests.filter((u) => !u.startsWith(server.url.slice(0, -1)))).toEqual([]);
    await page.close();
  });

  it('viewer.html from a file URL: the same app, read-only, nothing requested but the file', async () => {
    const dir = join(root, 'file-run');
    cpSync(join(root, 'current'), dir, { recursive: true });
    const { files } = await renderReports(dir, { version: 'test', viewerBundleDir: bundleDir });
    const file = join(dir, 'viewer.html');
    expect(files).toContain(file);
    const url = pathToFileURL(file).href;
    const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
    const seen = watch(page);
    await page.goto(`${url}#/questions`);
    await expect.poll(() => page.locator('a.row[data-question]').count()).toBe(6);
    expect(await page.locator('.banner').textContent()).toContain('Read-only');

    await page.goto(`${url}#/q/q1`);
    const first = page.locator('article.pane').first();
    await expect.poll(() => page.locator('article.pane').count()).toBe(4);
    await first.locator('button.marker', { hasText: '[1]' }).click();
    await expect.poll(() => first.locator('li[data-cite="1"]').getAttribute('class')).toContain('target');
    // The review made through the server is in the run's reviews.jsonl, so viewer.html shows it.
    expect(await first.locator('.review-current').textContent()).toContain('pass by ann');
    expect(await page.locator('.review-form').count()).toBe(0);
    expect(await first.locator('.read-only').textContent()).toContain('unavailable in viewer.html');
    const o = await overflow(page);
    expect(o.overflowing).toEqual([]);
    expect(o.page).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join('reports', 'viewer-file-800.png'), fullPage: false });

    expect(seen.problems).toEqual([]);
    expect(new Set(seen.requests.map((u) => u.split('#')[0]))).toEqual(new Set([url]));
    await page.close();
  });
});
