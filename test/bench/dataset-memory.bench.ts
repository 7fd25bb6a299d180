/**
 * `npm run bench:dataset-memory`: peak memory (the kernel's high-water RSS, from the process's own
 * resource usage at exit) of `chatbench validate` and of an eval plan built and walked
 * (prepareEval, then every planned request) on a generated CSV of 1,000,000 questions (about
 * 64 MB), each in its own Node process without --max-old-space-size (issue 23 item 3). `--rows N`
 * another size. Writes reports/bench/dataset-memory.json and prints the table. Bounded: each child
 * is killed after CHILD_DEADLINE_MS.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { finished } from 'node:stream/promises';

const ROOT = resolve(import.meta.dirname, '../..');
const ROWS = process.argv.includes('--rows') ? Number(process.argv[process.argv.indexOf('--rows') + 1]) : 1_000_000;
const CHILD_DEADLINE_MS = 10 * 60_000;
const load = () => Math.round((loadavg()[0] ?? 0) * 100) / 100;

/** Preloaded into each child: prints its peak RSS (KiB) as the last line of stderr when it exits. */
const MAX_RSS_HOOK = `process.on('exit', () => process.stderr.write('\\nmax_rss_kib=' + process.resourceUsage().maxRSS + '\\n'));\n`;

/** Walks the plan as eval would: every planned request is made once, none kept. */
const PLAN_SCRIPT = (dataset: string) => `
const { prepareEval } = await import(${JSON.stringify(join(ROOT, 'dist/app/eval/run-eval.js'))});
const prepared = await prepareEval({ datasetPath: ${JSON.stringify(dataset)}, setFlags: [], mode: 'full', repeat: 1, cwd: process.cwd() });
let requests = 0;
for (const request of prepared.plan) requests += request ? 1 : 0;
process.stdout.write(JSON.stringify({ planned: prepared.plan.length, walked: requests }) + '\\n');
await prepared.checks?.close();
`;

async function writeDataset(path: string, rows: number): Promise<void> {
  const out = createWriteStream(path);
  out.write('id,question,expected_documents,category\n');
  for (let i = 0; i < rows; i++) {
    const line = `q${i},What does the travel policy say about case ${i} of the year?,doc-${i % 997}|ref-${i % 991},cat${i % 7}\n`;
    if (!out.write(line)) await new Promise<void>((done) => out.once('drain', () => done()));
  }
  out.end();
  await finished(out);
}

async function measure(name: string, args: string[], hook: string): Promise<{ name: string; exit: number | null; seconds: number; peak_rss_mb: number | null; stdout: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--require', hook, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env['PATH'] ?? '', NODE_OPTIONS: '' } });
  const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_DEADLINE_MS);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const exit = await new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  clearTimeout(timer);
  const kib = /max_rss_kib=(\d+)/.exec(stderr)?.[1];
  return { name, exit, seconds: Math.round((performance.now() - started) / 100) / 10, peak_rss_mb: kib === undefined ? null : Math.round(Number(kib) / 102.4) / 10, stdout: stdout.trim().split('\n').slice(-3).join(' | ') };
}

async function main(): Promise<void> {
  const loadBefore = load();
  const work = await mkdtemp(join(tmpdir(), 'chatbench-dataset-memory-'));
  try {
    const dataset = join(work, 'questions.csv');
    await writeDataset(dataset, ROWS);
    const hook = join(work, 'max-rss.cjs');
    writeFileSync(hook, MAX_RSS_HOOK);
    const planScript = join(work, 'plan.mjs');
    writeFileSync(planScript, PLAN_SCRIPT(dataset));
    const rows = [
      await measure('validate', ['bin/chatbench.js', 'validate', '--dataset', dataset], hook),
      await measure('eval plan (prepareEval + walk)', [planScript], hook),
    ];
    const report = {
      generated_at: new Date().toISOString(), rows_in_dataset: ROWS, dataset_mb: Math.round(statSync(dataset).size / 1e5) / 10,
      machine: { cores: cpus().length, node: process.version, load_before: loadBefore, load_after: load() }, results: rows,
    };
    mkdirSync(join(ROOT, 'reports/bench'), { recursive: true });
    writeFileSync(join(ROOT, 'reports/bench/dataset-memory.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log(`${ROWS.toLocaleString('en-US')} rows, ${report.dataset_mb} MB; load ${loadBefore} → ${report.machine.load_after}`);
    for (const r of rows) console.log(`${r.name}: exit ${r.exit}, ${r.seconds} s, peak RSS ${r.peak_rss_mb} MB  ${r.stdout.slice(0, 200)}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
