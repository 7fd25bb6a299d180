/**
 * Issue 27 §3 in a real browser (Debian's chromium through playwright-core, one launch for the
 * file): a run whose questions expect nothing shows its pass rate as "not checked" in the viewer's
 * overview, never 100%. Skipped, saying why, where /usr/bin/chromium is absent.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openViewRuns } from '../../src/app/shared/view-runs.js';
import { makeRecord, makeScores } from '../../src/metrics/test-records.js';
import { readViewerBundle } from '../../src/viewer/assets.js';
import { startViewerServer } from '../../src/viewer/server.js';
import { buildTestBundle } from '../helpers/view-run.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`viewer-not-checked-browser: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

describe.skipIf(!hasChromium)('the viewer in headless chromium: nothing checked', () => {
  it('shows the pass rate as not checked', { timeout: 30_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'chatbench-viewer-unchecked-'));
    const dir = join(root, 'run');
    mkdirSync(dir);
    const records = ['q1', 'q2'].map((q) =>
      makeRecord({
        question_id: q,
        key: `${q}|fast|stream|0`,
        set: 'fast',
        expected_document_ids: [],
        scores: makeScores({ checked: false }),
      }),
    );
    writeFileSync(join(dir, 'results.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const source = await openViewRuns({ runs: ['run'], cwd: root, reviewer: 'ann', version: 'test', resamples: 200 });
    const server = await startViewerServer({ source, bundle: await readViewerBundle(await buildTestBundle()) });
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(server.url);
      const cell = page.locator('tr[data-figure="pass_rate"] td');
      await cell.first().waitFor({ timeout: 10_000 });
      expect(await cell.allTextContents()).toEqual(['not checked']);
    } finally {
      await browser.close();
      await server.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
