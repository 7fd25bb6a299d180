/**
 * Issue 27 §3 in a real browser (Debian's chromium through playwright-core, the
 * process's one launch: test/helpers/browser): a run whose questions expect nothing shows its pass rate as "not checked" in the viewer's
 * overview, never 100%. Skipped, saying why, where /usr/bin/chromium is absent.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openViewRuns } from '../../src/app/shared/view-runs.js';
import { makeRecord, makeScores } from '../../src/metrics/test-records.js';
import { readViewerBundle } from '../../src/viewer/assets.js';
import { startViewerServer } from '../../src/viewer/server.js';
import { buildTestBundle } from '../helpers/view-run.js';
import { hasChromium, sharedBrowser, warnWithoutChromium } from '../helpers/browser.js';

warnWithoutChromium('viewer-not-checked-browser');

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
    const page = await (await sharedBrowser()).newPage();
    try {
      await page.goto(server.url);
      const cell = page.locator('tr[data-figure="pass_rate"] td');
      await cell.first().waitFor({ timeout: 10_000 });
      expect(await cell.allTextContents()).toEqual(['not checked']);
    } finally {
      await page.close();
      await server.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
