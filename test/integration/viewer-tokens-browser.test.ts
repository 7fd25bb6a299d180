/**
 * Issue 27 §6 in a real browser (Debian's chromium through playwright-core, the
 * process's one launch: test/helpers/browser): the viewer's overview shows the ITL (`answer_gap_ms`, pooled) per set next to the token
 * figures, and a question's page each answer's output tokens, tokens/s, TPOT and its own ITL.
 * The "Tokens per set" block and each pane's set line print the figures of the run's
 * summary.json (as `chatbench report` writes it), digit for digit.
 * Skipped, saying why, where /usr/bin/chromium is absent.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openViewRuns } from '../../src/app/shared/view-runs.js';
import { main } from '../../src/cli/main.js';
import { makeRecord } from '../../src/metrics/test-records.js';
import { SummarySchema } from '../../src/records/summary.js';
import { formatCount, formatMs } from '../../src/reports/format.js';
import { readViewerBundle } from '../../src/viewer/assets.js';
import { startViewerServer } from '../../src/viewer/server.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { buildTestBundle } from '../helpers/view-run.js';
import { hasChromium, sharedBrowser, warnWithoutChromium } from '../helpers/browser.js';

warnWithoutChromium('viewer-tokens-browser');

describe.skipIf(!hasChromium)('the viewer in headless chromium: token figures and ITL', () => {
  it('shows the pooled ITL per set and each answer its own', { timeout: 30_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), 'chatbench-viewer-tokens-'));
    const dir = join(root, 'run');
    mkdirSync(dir);
    // Three answers of three lengths streamed with gaps 10, 20 and 30 ms: pooled and each alone, p50 20 ms, p95 29 ms.
    const answers = {
      q1: 'Employees get twenty-five days of paid time off each year.',
      q2: 'Twenty-five days.',
      q3: 'Employees get twenty-five days of paid time off each year, and unused days carry over to March.',
    };
    const records = Object.entries(answers).map(([q, answer]) =>
      makeRecord({
        question_id: q,
        key: `${q}|fast|stream|0`,
        set: 'fast',
        answer,
        ttft_ms: 100,
        total_ms: 1000,
        answer_gaps_ms: [10, 20, 30],
      }),
    );
    writeFileSync(join(dir, 'results.jsonl'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    expect(await main(['report', dir], createFakeIo({ cwd: root }).io)).toBe(0);
    const group = SummarySchema.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'))).groups[0]!;
    const { output_tokens: tokens, output_tokens_per_s: rate, tpot_per_token_ms: tpot } = group.latency;
    const itl = group.answer_gap_ms!;
    const fromSummary = [
      formatCount(tokens!.p50),
      rate!.p50.toFixed(1),
      formatMs(tpot!.p50),
      formatMs(itl.p50),
      formatMs(itl.p99),
    ];
    const source = await openViewRuns({ runs: ['run'], cwd: root, reviewer: 'ann', version: 'test', resamples: 200 });
    const server = await startViewerServer({ source, bundle: await readViewerBundle(await buildTestBundle()) });
    const page = await (await sharedBrowser()).newPage();
    try {
      await page.goto(`${server.url}#/overview?all=1`);
      const p50 = page.locator('tr[data-figure="answer_gap_ms.p50"] td');
      await p50.first().waitFor({ timeout: 10_000 });
      expect((await p50.allTextContents()).join(' ')).toMatch(/20(\.0)? ms/);
      // The ITL rows follow the token figures' rows.
      const names = await page.locator('tr[data-figure]').evaluateAll((rows) => rows.map((r) => r.dataset.figure));
      expect(names.indexOf('answer_gap_ms.p50')).toBeGreaterThan(names.indexOf('tpot_per_token_ms.max'));
      expect(names.indexOf('answer_gap_ms.p95')).toBeGreaterThan(0);
      // The block per set: summary.json's figures as printed, nothing recomputed.
      const block = page.locator('[data-block="token-summary"] tr[data-column="fast"]');
      expect(await block.locator('td').allTextContents()).toEqual(fromSummary);
      expect(await block.locator('th .sub').textContent()).toBe(`${tokens!.count} answers · ${itl.count} gaps`);

      await page.goto(`${server.url}#/q/q1`);
      const line = page.locator('[data-figures="tokens"]');
      await line.first().waitFor({ timeout: 10_000 });
      expect(await line.first().textContent()).toMatch(
        /^\d+ tokens · [\d.]+ tokens\/s · TPOT [\d.]+ ms · ITL p50 20\.0 ms, p95 29\.0 ms \(3 gaps\)$/,
      );
      // under it, the set's line from the same summary
      const [t, r, tp, i50, i99] = fromSummary;
      expect(await page.locator('[data-figures="set-tokens"]').first().textContent()).toBe(
        `set: median ${t} tokens, ${r} tokens/s · TPOT p50 ${tp} · ITL p50 ${i50}, p99 ${i99}`,
      );
    } finally {
      await page.close();
      await server.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
