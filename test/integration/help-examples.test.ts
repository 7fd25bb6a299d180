/**
 * Every example of every command's --help and every `npx chatbench` line of the manual's shell
 * blocks (README.md and docs/) runs as printed, against the simulator, in-process (test/helpers/run-example). The
 * examples' world is set up as a user would have it, small: a working directory holding the files
 * the examples name (datasets/sample.csv with four questions and a conversation, examples/ as shipped, q.csv and tokens.txt for the README, runs of
 * earlier commands under the names the examples use), the variables the README exports pointing at
 * the test's simulator (CHATBENCH_BASE_URL, CHATBENCH_TOKEN, CHATBENCH_JUDGE, START_AT, RUN_ID), CHATBENCH_PORT=0 so
 * that `serve` and `view` take a free port, and CHATBENCH_TEST_SPEEDUP so that a minute-long
 * example takes a fraction of a second (cli/options/speedup: schedule lengths divided, the embedded
 * simulator faster). The curl examples of `serve --help` and of the manual run through bash and
 * curl (when installed) against the simulator, as pasted.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import yargs from 'yargs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { recording } from '../../src/cli/options/yargs-layers.js';
import { loadCorpus, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { joinContinuations, runExample } from '../helpers/run-example.js';

const ROOT = join(import.meta.dirname, '..', '..');
const TOKEN = 'onyx_pat_chatbench_demo';
let sim: RunningSimulator;
let base: string;
let env: Record<string, string>;

/** Examples that may exit 1: a gate, an SLO or a capacity search can fail on four questions. */
const mayFail = (line: string) => /--gate |--gates-file |--slo |--baseline | capacity /.test(line);

/**
 * A setup run: no judge (nothing reads the verdicts of the runs the examples read) and not in the
 * run history (no example reads a setup run from it; registering cost ~0.25 s a run), so setup stays quick.
 */
async function chatbench(cwd: string, args: string[]): Promise<void> {
  const fake = createFakeIo({
    env: Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('CHATBENCH_JUDGE'))),
    cwd,
  });
  const code = await main([...args, '--no-history'], fake.io);
  if (code !== 0) throw new Error(`setup: chatbench ${args.join(' ')} exited ${code}: ${fake.stderr()}`);
}

let template: string;

/** A fresh copy of the examples' working directory, less `except` (runs an example writes itself). */
function world(except: readonly string[] = []): string {
  const cwd = mkdtempSync(join(base, 'cwd-'));
  cpSync(template, cwd, { recursive: true });
  for (const dir of except) rmSync(join(cwd, dir), { recursive: true, force: true });
  return cwd;
}

/** The working directory with what the examples name, and the runs they read, made once. */
async function makeTemplate(): Promise<string> {
  const cwd = mkdtempSync(join(base, 'template-'));
  // The header, q001–q004 (single questions the labels below name) and the three-turn pto conversation.
  const [header, ...rows] = readFileSync(join(ROOT, 'datasets', 'sample.csv'), 'utf8').split('\n');
  const sample = [
    header,
    ...['q001', 'q002', 'q003', 'q004', 'q076', 'q077', 'q078'].map((id) =>
      rows.find((row) => row.startsWith(`${id},`)),
    ),
  ].join('\n');
  mkdirSync(join(cwd, 'datasets'));
  writeFileSync(join(cwd, 'datasets', 'sample.csv'), `${sample}\n`);
  for (const name of ['q.csv', 'questions.csv']) writeFileSync(join(cwd, name), `${sample}\n`);
  copyFileSync(join(ROOT, 'datasets', 'models.example.json'), join(cwd, 'datasets', 'models.example.json'));
  copyFileSync(join(ROOT, 'datasets', 'models.example.json'), join(cwd, 'm.json'));
  cpSync(join(ROOT, 'datasets', 'baselines'), join(cwd, 'datasets', 'baselines'), { recursive: true });
  // The help examples' own files, as shipped; the target of examples/prod.json is the test's simulator.
  cpSync(join(ROOT, 'examples'), join(cwd, 'examples'), { recursive: true });
  writeFileSync(
    join(cwd, 'examples', 'prod.json'),
    JSON.stringify({ 'base-url': sim.baseUrl, 'token-file': 'examples/token.txt' }),
  );
  writeFileSync(join(cwd, 'tokens.txt'), `${TOKEN} 4\nonyx_pat_chatbench_second_user 1\n`);
  writeFileSync(join(cwd, 'token.txt'), `${TOKEN}\n`);
  writeFileSync(join(cwd, 'prod.json'), JSON.stringify({ 'base-url': sim.baseUrl, 'token-file': 'token.txt' }));
  writeFileSync(join(cwd, 'urls.txt'), 'https://status.northwind.example/\n');
  writeFileSync(join(cwd, 'gates.json'), JSON.stringify({ gates: ['citation_recall delta >= -1'] }));
  writeFileSync(join(cwd, 'research.json'), JSON.stringify({ sets: [{ name: 'research', deep_research: true }] }));
  for (const name of ['labels.csv', 'reviewed.csv'])
    writeFileSync(join(cwd, name), 'question_id,verdict\nq001,pass\nq002,fail\n');
  writeFileSync(
    join(cwd, 'checks.mjs'),
    "export const cites_policy = (ctx) => ctx.cited_documents.some((d) => d.title?.includes('policy'));\n",
  );
  const evalRun = (out: string, ...more: string[]) =>
    chatbench(cwd, ['eval', '--dataset', 'q.csv', '--out', out, ...more]);
  await evalRun('reports/2026-11-20T10-00-00-eval');
  for (const copy of ['reports/new', 'runs/a', 'runs/b'])
    cpSync(join(cwd, 'reports/2026-11-20T10-00-00-eval'), join(cwd, copy), { recursive: true });
  await evalRun('old', '--set', 'fast=openai:gpt-4o-mini@0', '--set', 'accurate=openai:gpt-4o@0');
  await evalRun('new', '--set', 'fast-v2=openai:gpt-4o-mini@0', '--set', 'accurate=openai:gpt-4o@0');
  for (const i of [1, 2, 3, 4]) await evalRun(`runs/shard-${i}`, '--sets-file', 'm.json', '--shard', `${i}/4`);
  for (const i of [1, 2]) await evalRun(`runs/r1/shard-${i}`, '--shard', `${i}/2`);
  await chatbench(cwd, [
    'load',
    '--dataset',
    'q.csv',
    '--rate',
    '20',
    '--requests',
    '4',
    '--mode',
    'full',
    '--out',
    'reports/2026-11-20T10-00-00-load',
  ]);
  for (const i of [1, 2, 3])
    await chatbench(cwd, [
      'load',
      '--dataset',
      'q.csv',
      '--rate',
      '30',
      '--duration',
      '30s',
      '--mode',
      'full',
      '--shard',
      `${i}/3`,
      '--out',
      `load-${i}`,
    ]);
  return cwd;
}

beforeAll(async () => {
  sim = await startSimulator({ config: { chat: { time_scale: 0.003 } }, corpus: await loadCorpus() });
  base = mkdtempSync(join(tmpdir(), 'chatbench-examples-'));
  env = {
    CHATBENCH_BASE_URL: sim.baseUrl,
    CHATBENCH_TOKEN: TOKEN,
    CHATBENCH_TEST_SPEEDUP: '600',
    CHATBENCH_PORT: '0',
    // The judge the examples name by CHATBENCH_JUDGE: the simulator's rule-based one (an OpenAI-compatible route).
    CHATBENCH_JUDGE: new URL(sim.baseUrl).origin,
    CHATBENCH_JUDGE_MODEL: 'any-name',
    CHATBENCH_JUDGE_FIGURES: 'correctness',
    CHATBENCH_JUDGE_CACHE_DIR: join(base, 'judge-cache'),
    RUN_ID: 'r1',
    HOME: base,
    BROWSER: 'true',
    START_AT: new Date(Date.now() - 1000).toISOString(),
  };
  template = await makeTemplate();
}, 120_000);
afterAll(async () => {
  await sim?.close();
  if (base) rmSync(base, { recursive: true, force: true });
});

/** Every example of every command's --help, as [command, example]. */
async function helpExamples(): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const entry of COMMANDS) {
    const examples: [string, string][] = [];
    const command = (await entry.load())(createFakeIo().io, () => undefined);
    recording(command.builder, new Map(), { eager: true, examples })(yargs([]));
    for (const [example] of examples) out.push([entry.name, example.replaceAll('$0', 'chatbench')]);
  }
  return out;
}

/**
 * The manual in the order a reader meets it (the README, then the pages it grew into): its examples
 * run in this order, in one working directory, so a page may read what an earlier one wrote.
 * Every page of docs/ is listed, here or in NOT_RUN with the reason.
 */
const MANUAL = [
  'README.md',
  'docs/configuration.md',
  'docs/commands/eval.md',
  'docs/commands/validate.md',
  'docs/commands/draft-expectations.md',
  'docs/commands/demo.md',
  'docs/commands/report.md',
  'docs/conversations.md',
  'docs/tools.md',
  'docs/answer-quality.md',
  'docs/commands/compare.md',
  'docs/ci.md',
  'docs/commands/baseline.md',
  'docs/commands/view.md',
  'docs/commands/load.md',
  'docs/health-probe.md',
  'docs/abandon.md',
  'docs/commands/capacity.md',
  'docs/commands/merge.md',
  'docs/reliability.md',
  'docs/limits.md',
  'docs/releases.md',
  'docs/benchmarks.md',
  'docs/reference/exit-codes.md',
  'docs/simulator.md',
  'docs/reference/README.md',
  'docs/reference/service-api.md',
  'docs/reference/wire-format.md',
  'docs/reference/onyx-releases.md',
  'docs/reference/metrics.md',
  'docs/reference/results-jsonl.md',
  'docs/figures.md',
  'docs/architecture.md',
  'docs/dependencies.md',
  'docs/development.md',
  'docs/glossary.md',
  'docs/install.md',
  'docs/resume.md',
  'docs/project-instructions.md',
  'docs/terminal.md',
  'docs/telemetry.md',
  'docs/github-action.md',
  'docs/history.md',
  'docs/tokens.md',
];

/** Pages whose shell blocks are recipes for another machine, not examples to run here. */
const NOT_RUN: Record<string, string> = {
  'docs/mock-llm.md': 'registers the mock LLM in a real deployment ($ONYX, an admin token)',
  'docs/onyx-loadtest-kit.md': "runs the service's own Locust kit from the onyx repository (test/soak runs it)",
  'docs/tls.md':
    'names a deployment behind a private CA; test/integration/ca-file.test.ts runs --ca-file against a loopback HTTPS server',
  'docs/scale-out.md':
    'recipes for a Kubernetes Job and a CI matrix; their commands run from docs/commands/merge.md and deploy/',
};

/** Every markdown page of docs/, relative to the root. */
function docsPages(dir = 'docs'): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? docsPages(`${dir}/${e.name}`) : e.name.endsWith('.md') ? [`${dir}/${e.name}`] : [],
  );
}

/** The manual's `npx chatbench` commands of its `sh` blocks (continuations joined), in order. */
function manualExamples(pages: readonly string[] = MANUAL): string[] {
  const blocks = pages.flatMap((page) =>
    [...readFileSync(join(ROOT, page), 'utf8').matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!),
  );
  return blocks.flatMap((block) => joinContinuations(block.split('\n')).filter((line) => /^npx chatbench /.test(line)));
}

async function expectRuns(line: string, cwd: string): Promise<void> {
  // Never anywhere but loopback: an example that names a real host must take it from the environment.
  expect(line).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)/);
  const run = await runExample(line, { env, cwd });
  const allowed = mayFail(line) ? [0, 1] : [0];
  expect(allowed, `${line}\nexit ${run.code}\n${run.stderr}`).toContain(run.code);
  expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
}

describe('every --help example runs as printed', () => {
  it('against the simulator, in a directory holding what the examples name', async () => {
    const cwd = world();
    const examples = await helpExamples();
    expect(examples.length).toBeGreaterThan(25);
    // Those that write a directory others read come last (baseline save rewrites the baseline).
    const order = (line: string) => (/baseline save|--out (runs\/merged|load|reports\/nightly)\b/.test(line) ? 1 : 0);
    // `init` writes a config that every later example in its directory would read: it runs in an empty one, as a user's.
    for (const [command, line] of [...examples].sort((a, b) => order(a[1]) - order(b[1])))
      await expectRuns(line, command === 'init' ? mkdtempSync(join(base, 'init-')) : cwd);
  }, 240_000);
});

describe('every example of the manual (README and docs/) runs as printed', () => {
  it('lists every page of docs/', () => {
    expect(docsPages().filter((page) => !MANUAL.includes(page) && NOT_RUN[page] === undefined)).toEqual([]);
  });

  it("in the manual's order, with the variables it exports pointing at the simulator", async () => {
    // The scale-out page's shard example writes runs/shard-2 itself, before it merges the four.
    const cwd = world(['runs/shard-2']);
    const examples = manualExamples();
    expect(examples.length).toBeGreaterThan(12);
    for (const line of examples) await expectRuns(line, cwd);
  }, 240_000);
});

describe('curl examples paste as printed', () => {
  const curlAvailable = spawnSync('curl', ['--version']).status === 0;

  /** The `curl` commands of `text` (continuations joined). */
  const curls = (text: string) => joinContinuations(text.split('\n')).filter((line) => line.startsWith('curl '));

  it.skipIf(!curlAvailable)('serve --help and the manual: each answers with what it describes', async () => {
    const fake = createFakeIo({ env: {} });
    expect(await main(['serve', '--help'], fake.io)).toBe(0);
    const help = fake.stdout();
    for (const line of help.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    const manual = MANUAL.map((page) => readFileSync(join(ROOT, page), 'utf8')).join('\n');
    const commands = [...curls(help), ...curls(manual)];
    expect(commands.length).toBeGreaterThanOrEqual(9);
    for (const command of commands) {
      // Not spawnSync: the simulator answering curl runs in this process.
      const result = await promisify(execFile)('bash', ['-c', command], {
        env: { PATH: process.env.PATH ?? '', B: sim.baseUrl, T: TOKEN },
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.stdout, command).not.toBe('');
      expect(result.stdout, command).not.toMatch(/"detail"|Not Found|Unauthorized/i);
    }
  });
});
