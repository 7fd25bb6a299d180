/**
 * Issue 27 §6 in a real browser (Debian's chromium through playwright-core, one launch for the
 * file): the viewer's overview shows the ITL (`answer_gap_ms`, pooled) per set next to the token
 * figures, and a question's page each answer's output tokens, tokens/s, TPOT and its own ITL.
 * Skipped, saying why, where /usr/bin/chromium is absent.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openViewRuns } from '../../src/app/shared/view-runs.js';
import { makeRecord } from '../../src/metrics/test-records.js';
import { readViewerBundle } from '../../src/viewer/assets.js';
import { startViewerServer } from '../../src/viewer/server.js';
import { buildTestBundle } from '../helpers/view-run.js';

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`viewer-tokens-browser: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);

describe.skipIf(!hasChromium)('the viewer in headless chromium: token figures and ITL', () => {
  it('shows the pooled ITL per set and each answer its own', { timeout: 30_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'chatbench-viewer-tokens-'));
    const dir = join(root, 'run');
    mkdirSync(dir);
    // Two answers streamed with gaps 10, 20 and 30 ms: pooled and each alone, p50 20 ms, p95 29 ms.
    const records = ['q1', 'q2'].map((q) =>
      makeRecord({
        question_id: q,
        key: `${q}|fast|stream|0`,
        set: 'fast',
        answer: 'Employees get twenty-five days of paid time off each year.',
        ttft_ms: 100,
        total_ms: 1000,
        answer_gaps_ms: [10, 20, 30],
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
      await page.goto(`${server.url}#/overview?all=1`);
      const p50 = page.locator('tr[data-figure="answer_gap_ms.p50"] td');
      await p50.first().waitFor({ timeout: 10_000 });
      expect((await p50.allTextContents()).join(' ')).toMatch(/20(\.0)? ms/);
      // The ITL rows follow the token figures' rows.
      const names = await page.locator('tr[data-figure]').evaluateAll((rows) => rows.map((r) => r.dataset.figure));
      expect(names.indexOf('answer_gap_ms.p50')).toBeGreaterThan(names.indexOf('tpot_per_token_ms.max'));
      expect(names.indexOf('answer_gap_ms.p95')).toBeGreaterThan(0);

      await page.goto(`${server.url}#/q/q1`);
      const line = page.locator('[data-figures="tokens"]');
      await line.first().waitFor({ timeout: 10_000 });
      expect(await line.first().textContent()).toMatch(
        /^\d+ tokens · [\d.]+ tokens\/s · TPOT [\d.]+ ms · ITL p50 20\.0 ms, p95 29\.0 ms \(3 gaps\)$/,
      );
    } finally {
      await browser.close();
      await server.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
