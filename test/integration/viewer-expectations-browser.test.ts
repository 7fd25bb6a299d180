/**
 * Issue 27 §3 in a real browser (Debian's chromium through playwright-core, the
 * process's one launch: test/helpers/browser): on a run that `chatbench draft-expectations` has drafted, the question page's "Expected
 * documents" panel rejects the proposed candidate and accepts another, the decisions survive a reload, and
 * the exported CSV is a dataset `validate` accepts, expecting the accepted document. Skipped,
 * saying why, where /usr/bin/chromium is absent.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { openViewRuns } from '../../src/app/shared/view-runs.js';
import { main } from '../../src/cli/main.js';
import { readViewerBundle } from '../../src/viewer/assets.js';
import { startViewerServer } from '../../src/viewer/server.js';
import { draftedRun } from '../helpers/expectations-run.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { buildTestBundle } from '../helpers/view-run.js';
import { hasChromium, sharedBrowser, warnWithoutChromium } from '../helpers/browser.js';

warnWithoutChromium('viewer-expectations-browser');

async function cli(root: string, args: string[]) {
  const fake = createFakeIo({ cwd: root });
  const code = await main(args, fake.io);
  return { code, stderr: fake.stderr() };
}

describe.skipIf(!hasChromium)('the viewer in headless chromium: expected documents', () => {
  it(
    'accepts and rejects candidates, keeps them over a reload, exports a CSV that validates',
    { timeout: 60_000 },
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'chatbench-viewer-expectations-'));
      await draftedRun(root);
      expect(readFileSync(join(root, 'run', 'expectations-draft.csv'), 'utf8')).toContain(
        'calendar year?,hr-pto-policy',
      );
      const source = await openViewRuns({ runs: ['run'], cwd: root, reviewer: 'ann', version: 'test', resamples: 200 });
      const server = await startViewerServer({ source, bundle: await readViewerBundle(await buildTestBundle()) });
      const page = await (await sharedBrowser()).newPage();
      try {
        await page.goto(`${server.url}#/q/pto`);
        const row = (id: string) => page.locator(`section.expectations tr[data-document="${id}"]`);
        const button = (id: string, name: 'Accept' | 'Reject') => row(id).getByRole('button', { name });
        await row('hr-pto-policy').waitFor({ timeout: 10_000 });
        expect(await row('hr-pto-policy').textContent()).toContain('Paid time off policy');
        // The draft proposed the cited one: rejected; the one only given is accepted (the export differs from the draft).
        await button('hr-pto-policy', 'Reject').click();
        await page.locator('tr[data-document="hr-pto-policy"].reject').waitFor({ timeout: 30_000 });
        await button('hr-parental-leave', 'Accept').click();
        await page.locator('tr[data-document="hr-parental-leave"].accept').waitFor({ timeout: 30_000 });

        await page.reload();
        await row('hr-pto-policy').waitFor({ timeout: 10_000 });
        expect(await button('hr-pto-policy', 'Reject').getAttribute('aria-pressed')).toBe('true');
        expect(await button('hr-pto-policy', 'Accept').getAttribute('aria-pressed')).toBe('false');
        expect(await button('hr-parental-leave', 'Accept').getAttribute('aria-pressed')).toBe('true');

        const download = page.waitForEvent('download');
        await page.getByRole('link', { name: 'Export the completed CSV' }).click();
        const file = join(root, 'expectations.csv');
        await (await download).saveAs(file);
        expect(parse(readFileSync(file, 'utf8'), { columns: true })).toEqual([
          expect.objectContaining({ id: 'pto', expected_documents: 'hr-parental-leave' }),
          expect.objectContaining({ id: 'leave', expected_documents: 'hr-parental-leave' }),
        ]);
        expect(
          readFileSync(join(root, 'run', 'expectations.jsonl'), 'utf8')
            .trim()
            .split('\n'),
        ).toHaveLength(2);
        expect(await cli(root, ['validate', '--dataset', 'expectations.csv', '--sim'])).toEqual({
          code: 0,
          stderr: '',
        });
      } finally {
        await page.close();
        await server.close();
        rmSync(root, { recursive: true, force: true });
      }
    },
  );
});
