/**
 * The viewer reads at a glance (issue 27, item 7), in a real browser (Debian's chromium through
 * playwright-core, the process's one launch, one page for the file): the judge's verdicts one line per figure
 * with the reason behind a disclosure, not a key/value dump; a reviewed answer marked unlike a
 * passed one (another glyph, another colour, its own accessible label); filters that leave no
 * question say so, and one button brings every question back.
 * Skipped, saying why, where /usr/bin/chromium is absent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openViewRuns } from '../../src/app/shared/view-runs.js';
import { readViewerBundle } from '../../src/viewer/assets.js';
import { startViewerServer, type ViewerServer } from '../../src/viewer/server.js';
import { buildTestBundle, VIEW_JUDGEMENT, writeViewRun } from '../helpers/view-run.js';
import { hasChromium, sharedBrowser, warnWithoutChromium } from '../helpers/browser.js';

warnWithoutChromium('viewer-read-browser');

const REASON = VIEW_JUDGEMENT.verdicts.correctness.reason;

describe.skipIf(!hasChromium)('the viewer reads at a glance, in headless chromium', () => {
  let browser: Browser;
  let root: string;
  let server: ViewerServer;
  let page: Page;
  const problems: string[] = [];
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'chatbench-viewer-read-'));
    const bundleDir = await buildTestBundle();
    writeViewRun(root, 'current');
    const source = await openViewRuns({
      runs: ['current'],
      cwd: root,
      reviewer: 'ann',
      version: 'test',
      resamples: 200,
    });
    server = await startViewerServer({ source, bundle: await readViewerBundle(bundleDir) });
    browser = await sharedBrowser();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  }, 30_000);
  afterAll(async () => {
    await page?.close();
    await server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("shows the judge's verdict as one line per figure, the reason on demand", async () => {
    await page.goto(`${server.url}#/q/q1`);
    const pane = page.locator('article.pane').first();
    const line = pane.locator('li.judge-line[data-figure="correctness"]');
    await expect.poll(() => line.count()).toBe(1);
    expect(await pane.locator('li.judge-line').count()).toBe(1);
    expect((await line.locator('.judge-figure').textContent())?.trim()).toBe('correctness');
    expect(await line.locator('.judge-score').textContent()).toBe('0.500');
    // One line high, the reason folded away until asked for.
    expect((await line.boundingBox())!.height).toBeLessThan(30);
    const reason = line.locator('details.judge-reason p');
    expect(await reason.isVisible()).toBe(false);
    await line.locator('summary').click();
    expect(await reason.isVisible()).toBe(true);
    expect(await reason.textContent()).toBe(REASON);
    // No key/value dump of the judge field (model, prompt_version, verdicts…) any more.
    expect(await pane.locator('.extra h4', { hasText: /^judge$/ }).count()).toBe(0);
    expect(await pane.textContent()).not.toContain('prompt_version');
  });

  it('marks a reviewed answer unlike a passed one: another glyph, another colour, its own label', async () => {
    const pane = page.locator('article.pane').first();
    await pane.getByRole('button', { name: 'Pass' }).click();
    const reviewed = pane.locator('.review-current svg.review-mark');
    await expect.poll(() => reviewed.getAttribute('aria-label')).toBe('reviewed pass');

    await page.goto(`${server.url}#/questions`);
    const rows = page.locator('a.row[data-question]');
    await expect.poll(() => rows.count()).toBe(6);
    // q1 · fast (stream): the review's badge; another passed cell: the pass rule's ✓ alone.
    const cells = await page.evaluate(() => {
      const colour = (e: Element | null) => (e ? getComputedStyle(e).color : null);
      const passed = Array.from(document.querySelectorAll('.cell.state-pass'));
      const reviewedCell = passed.find((c) => c.querySelector('svg.review-mark') !== null) ?? null;
      const plainCell = passed.find((c) => c.querySelector('svg.review-mark') === null) ?? null;
      const badge = reviewedCell?.querySelector('svg.review-mark') ?? null;
      return {
        reviewed: passed.filter((c) => c.querySelector('svg.review-mark') !== null).length,
        badgeLabel: badge?.getAttribute('aria-label') ?? null,
        badgeColour: colour(badge),
        plainText: plainCell?.textContent ?? null,
        plainColour: colour(plainCell),
        plainLabel: plainCell?.getAttribute('aria-label') ?? null,
        reviewedLabel: reviewedCell?.getAttribute('aria-label') ?? null,
      };
    });
    expect(cells.reviewed).toBe(1);
    expect(cells.badgeLabel).toBe('reviewed pass');
    expect(cells.plainText).toBe('✓');
    expect(cells.plainLabel).toMatch(/: passed$/);
    expect(cells.reviewedLabel).toMatch(/: passed · reviewed pass$/);
    expect(cells.badgeColour).not.toBe(cells.plainColour);
  });

  it('says when no question matches the filters, and clears them in one click', async () => {
    const rows = page.locator('a.row[data-question]');
    const empty = page.locator('.empty-result');
    expect(await empty.count()).toBe(0);
    await page.locator('label', { hasText: 'result' }).locator('select').selectOption('fail');
    await page.getByRole('searchbox').fill('nothing is called this');
    await expect.poll(() => empty.count()).toBe(1);
    expect(await rows.count()).toBe(0);
    expect(await empty.locator('p').textContent()).toBe('No questions match these filters.');
    await empty.getByRole('button', { name: 'Clear the filters' }).click();
    // The page settles as one state (a busy machine renders the list before the controls).
    const select = page.locator('label', { hasText: 'result' }).locator('select');
    await expect
      .poll(async () => [await rows.count(), await page.getByRole('searchbox').inputValue(), await select.inputValue()])
      .toEqual([6, '', '']);
    expect(await empty.count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
