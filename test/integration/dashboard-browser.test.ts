/**
 * `load --dashboard` in a real browser (Debian's chromium through playwright-core): a short load
 * against the simulator serves the page; it updates while the run lasts, shows the final state
 * (the verdict, the SLO and gate decided) after it, requests nothing off 127.0.0.1, and the CLI
 * stops on Ctrl-C while lingering. With CHATBENCH_UPDATE_SCREENSHOT=1 it also writes
 * docs/img/dashboard.png. Skipped, saying why, where /usr/bin/chromium is absent. Also (no browser
 * needed): a dashboard port taken is exit 2 before anything is sent, and the process does not hang.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { spawnCli, waitFor } from '../helpers/spawn-cli.js';
import { hasChromium, sharedBrowser, warnWithoutChromium } from '../helpers/browser.js';

warnWithoutChromium('dashboard-browser');
const ROOT = join(import.meta.dirname, '..', '..');

describe.skipIf(!hasChromium)('the live dashboard in headless chromium', () => {
  // Launched while the CLI starts (each takes about a second): awaited in the test and in afterAll.
  let launching: Promise<Browser>;
  let dir: string;
  beforeAll(async () => {
    // The CLI serves the bundle npm ci builds (scripts/build-viewer.mjs).
    expect(
      existsSync(join(ROOT, 'dist', 'viewer', 'dashboard.js')),
      'dist/viewer/dashboard.js: run `npm run build`',
    ).toBe(true);
    dir = mkdtempSync(join(tmpdir(), 'chatbench-dashboard-'));
    launching = sharedBrowser();
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('updates during the run, shows the final state after, fetches nothing off loopback, stops on Ctrl-C', async () => {
    const out = join(dir, 'run');
    const cli = spawnCli(
      [
        'load',
        '--sim',
        '--dataset',
        'datasets/sample.csv',
        '--rate',
        '10',
        '--duration',
        '32s',
        '--out',
        out,
        '--slo',
        'ttft_ms.p95<=60000',
        '--gate',
        'error_rate<=0.5',
        '--dashboard',
      ],
      // An 8 s schedule (32 s / 4) against an embedded simulator 4× faster than real time: its
      // answers of seconds would hold the run that long after the schedule's end. 4 s was too short
      // on a busy machine for the browser to see the points grow while the run still ran.
      { CHATBENCH_TEST_SPEEDUP: '4' },
    );
    const browser = await launching;
    // The default bound (60 s), against a hang: two suites at once (load average 12) took over 15 s to start it.
    await waitFor(
      () => /live dashboard at (http:\S+)/.test(cli.stderr()),
      () => `the dashboard's URL (stderr so far: ${cli.stderr()})`,
    );
    const url = /live dashboard at (http:\S+)/.exec(cli.stderr())![1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);

    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    await page.goto(url);
    const app = page.locator('.app');
    const points = async () => Number(await app.getAttribute('data-points'));
    // During the run: running, and the points grow from one poll to a later one.
    await expect.poll(() => app.getAttribute('data-state'), { timeout: 10_000 }).toBe('running');
    await expect.poll(points, { timeout: 10_000 }).toBeGreaterThan(0);
    const seen = await points();
    await expect
      .poll(async () => ({ more: (await points()) > seen, state: await app.getAttribute('data-state') }), {
        timeout: 10_000,
      })
      .toEqual({ more: true, state: 'running' });
    expect(
      await page
        .locator('[data-condition-state]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-condition-state'))),
    ).toEqual(['pending', 'pending']);

    // After it: the verdict layer's decision, and the counts of the run's own records.
    await expect.poll(() => app.getAttribute('data-state'), { timeout: 20_000 }).toBe('done');
    await waitFor(
      () => /the dashboard shows the final state/.test(cli.stderr()),
      () => `the linger notice (${cli.stderr()})`,
    );
    expect(await page.locator('[data-status]').textContent()).toMatch(/^PASSED: the SLO met; the gate passed/);
    expect(
      await page
        .locator('[data-condition-state]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-condition-state'))),
    ).toEqual(['met', 'met']);
    const records = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { outcome?: string });
    const ok = records.filter((r) => r.outcome === 'ok').length;
    expect(ok).toBeGreaterThan(0);
    expect(await page.locator('[data-tile="ok"]').textContent()).toBe(ok.toLocaleString('en-US'));
    if (process.env['CHATBENCH_UPDATE_SCREENSHOT'] === '1')
      await page.screenshot({ path: join(ROOT, 'docs', 'img', 'dashboard.png'), fullPage: true });

    expect(problems).toEqual([]);
    expect(requests.length).toBeGreaterThan(3);
    expect(requests.filter((r) => !r.startsWith(url))).toEqual([]);
    await page.close();

    // Lingering until Ctrl-C: one SIGINT ends it, with the run's exit code.
    cli.child.kill('SIGINT');
    const { code } = await cli.exited;
    expect(code, cli.stderr()).toBe(0);
  }, 120_000); // against a hang: waitFor's 60 s bounds on a busy machine
});

describe('--dashboard on a port taken', () => {
  it('is exit 2 naming the flag, nothing sent, and the process ends', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => void taken.close());
    const port = (taken.address() as AddressInfo).port;
    const out = join(mkdtempSync(join(tmpdir(), 'chatbench-dashboard-taken-')), 'run');
    onTestFinished(() => rmSync(join(out, '..'), { recursive: true, force: true }));
    const cli = spawnCli([
      'load',
      '--sim',
      '--dataset',
      'datasets/sample.csv',
      '--rate',
      '10',
      '--duration',
      '2s',
      '--out',
      out,
      '--dashboard',
      String(port),
    ]);
    const timer = setTimeout(() => cli.child.kill('SIGKILL'), 20_000); // a hang fails below, not the run
    const { code } = await cli.exited;
    clearTimeout(timer);
    expect(code, cli.stderr()).toBe(2);
    expect(cli.stderr()).toMatch(new RegExp(`--dashboard 127\\.0\\.0\\.1:${port}: cannot listen \\(EADDRINUSE\\)`));
    expect(existsSync(join(out, 'results.jsonl')) ? readFileSync(join(out, 'results.jsonl'), 'utf8') : '').toBe('');
  }, 25_000);
});
