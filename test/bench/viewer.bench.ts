/**
 * `npm run bench:viewer`: does a 20,000-record run open and filter without a stall? Writes a
 * synthetic run (5,000 questions × 3 sets + a 2-model set = 20,000 records, answers of about
 * 1,200 characters), then measures
 * 1. the server side: reading the run into the viewer (openViewRuns), /api/data's size and time;
 * 2. in Debian's chromium: from navigation to the first rows drawn, a filter, a search, scrolling
 *    to the end, and the longest main-thread task of each (a "stall" is a task over 200 ms);
 * 3. viewer.html of the run: its size and the time renderReports takes with it.
 * Writes reports/bench/viewer.json and .md. Not a test: the figures depend on the machine.
 */
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { buildViewer } from '../../scripts/build-viewer.mjs';
import { renderReports } from '../../src/app/eval/render-reports.js';
import { openViewRuns } from '../../src/app/shared/view-runs.js';
import { makeFigures, makeModel, makeRecord, makeScores } from '../../src/metrics/test-records.js';
import { readViewerBundle } from '../../src/viewer/assets.js';
import { startViewerServer } from '../../src/viewer/server.js';

const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 5_000);
const STALL_MS = 200;
const WORDS =
  'the policy says that employees may carry over unused days until the end of March and must request approval from their manager first'.split(
    ' ',
  );

function answerOf(q: number, set: number): string {
  const words: string[] = [];
  for (let i = 0; words.join(' ').length < 1_150; i += 1) words.push(WORDS[(q * 7 + set * 3 + i) % WORDS.length]!);
  return `${words.join(' ')} [[1]](https://wiki.example/doc-${q % 71}) and more ${q}-${set} [[2]](https://wiki.example/doc-${(q + 1) % 71}).`;
}

function writeRun(dir: string): number {
  mkdirSync(dir, { recursive: true });
  const lines: string[] = [];
  for (let q = 0; q < QUESTIONS; q += 1) {
    const question_id = `q${String(q).padStart(5, '0')}`;
    const expected = [`doc-${q % 71}`];
    const common = {
      question_id,
      question: `Question ${q}: what does the handbook say about topic ${q % 97}?`,
      category: `c${q % 9}`,
      expected_document_ids: expected,
    };
    const figures = (set: number) =>
      makeFigures({
        answer: answerOf(q, set),
        citations: [
          { citation_number: 1, document_id: `doc-${q % 71}` },
          { citation_number: 2, document_id: `doc-${(q + 1) % 71}` },
        ],
        cited_document_ids: [`doc-${q % 71}`, `doc-${(q + 1) % 71}`],
        top_document_ids: [`doc-${q % 71}`, `doc-${(q + 1) % 71}`, 'doc-x'],
        ttfp_ms: 50 + ((q * 13 + set * 7) % 400),
        ttft_ms: 300 + ((q * 17 + set * 11) % 900),
        total_ms: 1_000 + ((q * 19 + set * 5) % 3_000),
        // Half the questions fail in one column (q mod 10 names it), the other half pass everywhere.
        scores: makeScores({ citation_recall: q % 10 === set ? 0 : 1, citation_precision: 0.5, pass: q % 10 !== set }),
      });
    for (const [i, set] of ['fast', 'accurate', 'cheap'].entries())
      lines.push(JSON.stringify(makeRecord({ ...figures(i), ...common, set })));
    lines.push(
      JSON.stringify(
        makeRecord({
          ...common,
          set: 'duo',
          scores: null,
          models: [
            makeModel(0, { ...figures(3), model_name: 'small' }),
            makeModel(1, { ...figures(4), model_name: 'large' }),
          ],
        }),
      ),
    );
  }
  writeFileSync(join(dir, 'results.jsonl'), `${lines.join('\n')}\n`);
  return lines.length;
}

const round = (v: number) => Math.round(v);

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'chatbench-viewer-bench-'));
  const run = join(root, 'big');
  const records = writeRun(run);
  const bundleDir = join(root, 'bundle');
  await buildViewer(bundleDir);

  let t = performance.now();
  const source = await openViewRuns({ runs: [run], cwd: root, reviewer: 'bench', version: 'bench' });
  const openMs = performance.now() - t;
  const server = await startViewerServer({ source, bundle: await readViewerBundle(bundleDir) });
  t = performance.now();
  const response = await fetch(`${server.url}api/data`);
  const payload = await response.text();
  const dataMs = performance.now() - t;

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.addInitScript(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push(e.duration))).observe({
      type: 'longtask',
      buffered: true,
    });
  });
  const longest = async () =>
    page.evaluate(() => {
      const w = window as unknown as { longTasks: number[] };
      const max = Math.max(0, ...w.longTasks);
      w.longTasks = [];
      return max;
    });
  const rows = page.locator('a.row[data-question]');
  t = performance.now();
  await page.goto(`${server.url}#/questions`);
  await rows.first().waitFor();
  const firstRowsMs = performance.now() - t;
  const loadTask = await longest();
  const drawnRows = await rows.count();

  t = performance.now();
  await page.locator('label', { hasText: 'result' }).locator('select').selectOption('fail');
  await page.locator('p.count', { hasText: / of \d+ questions/ }).waitFor();
  const filterMs = performance.now() - t;
  const filterTask = await longest();
  const filtered = await page.locator('p.count').textContent();

  t = performance.now();
  await page.getByRole('searchbox').fill('topic 42');
  await page.waitForURL(/q=topic/);
  await page.locator('p.count', { hasText: / of \d+ questions/ }).waitFor();
  const searchMs = performance.now() - t;
  const searchTask = await longest();
  const searched = await page.locator('p.count').textContent();

  await page.goto(`${server.url}#/questions`);
  await rows.first().waitFor();
  await longest();
  t = performance.now();
  await page.locator('.list').evaluate(async (el) => {
    for (let i = 0; i < 40; i += 1) {
      el.scrollTop += el.scrollHeight / 40;
      await new Promise((r) => requestAnimationFrame(() => r(undefined)));
    }
  });
  const scrollMs = performance.now() - t;
  const scrollTask = await longest();
  await browser.close();
  await server.close();

  t = performance.now();
  await renderReports(run, { version: 'bench', viewerBundleDir: bundleDir });
  const reportsMs = performance.now() - t;
  const viewerHtmlBytes = statSync(join(run, 'viewer.html')).size;
  rmSync(root, { recursive: true, force: true });

  const result = {
    machine: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      load: loadavg().map((l) => Number(l.toFixed(2))),
      node: process.version,
    },
    records,
    questions: QUESTIONS,
    server: { open_ms: round(openMs), data_ms: round(dataMs), data_bytes: payload.length },
    browser: {
      first_rows_ms: round(firstRowsMs),
      load_longest_task_ms: round(loadTask),
      drawn_rows: drawnRows,
      filter_ms: round(filterMs),
      filter_longest_task_ms: round(filterTask),
      filtered,
      search_ms: round(searchMs),
      search_longest_task_ms: round(searchTask),
      searched,
      scroll_40_steps_ms: round(scrollMs),
      scroll_longest_task_ms: round(scrollTask),
    },
    viewer_html: { bytes: viewerHtmlBytes, render_reports_ms: round(reportsMs) },
    stall_ms: STALL_MS,
    stalled: [filterTask, searchTask, scrollTask].some((ms) => ms > STALL_MS),
  };
  const md = [
    '# viewer benchmark',
    '',
    `${records} records (${QUESTIONS} questions × 5 columns), ${result.machine.cpu}, load ${result.machine.load.join(' ')}.`,
    '',
    '| step | time | longest main-thread task |',
    '|---|---:|---:|',
    `| server reads the run (openViewRuns) | ${result.server.open_ms} ms | – |`,
    `| /api/data (${(payload.length / 1e6).toFixed(1)} MB) | ${result.server.data_ms} ms | – |`,
    `| browser: navigation to first rows (${drawnRows} rows in the DOM) | ${result.browser.first_rows_ms} ms | ${result.browser.load_longest_task_ms} ms |`,
    `| filter "fails somewhere" (${filtered}) | ${result.browser.filter_ms} ms | ${result.browser.filter_longest_task_ms} ms |`,
    `| search "topic 42" (${searched}) | ${result.browser.search_ms} ms | ${result.browser.search_longest_task_ms} ms |`,
    `| scroll to the end in 40 frames | ${result.browser.scroll_40_steps_ms} ms | ${result.browser.scroll_longest_task_ms} ms |`,
    `| renderReports with viewer.html (${(viewerHtmlBytes / 1e6).toFixed(1)} MB) | ${result.viewer_html.render_reports_ms} ms | – |`,
    '',
    `A stall is a task over ${STALL_MS} ms after the first load: ${result.stalled ? '**stalled**' : 'none'}.`,
    '',
  ].join('\n');
  mkdirSync('reports/bench', { recursive: true });
  writeFileSync('reports/bench/viewer.json', `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync('reports/bench/viewer.md', md);
  console.log(md);
}

// Bounded: past 5 minutes the benchmark ends itself.
const timer = setTimeout(() => {
  console.error('bench:viewer: over its 5-minute bound, stopping');
  process.exitCode = 1;
  process.kill(process.pid);
}, 300_000);
timer.unref();
await main();
