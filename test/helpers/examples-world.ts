/**
 * @module test/helpers/examples-world
 * The world the documented examples run in (test/integration/help-examples-make.test.ts and
 * help-examples-read.test.ts run the --help examples, test/integration/manual-examples.test.ts the
 * manual's; three files, so that vitest's two workers share them): a simulator; the variables the
 * README exports pointing at it (CHATBENCH_BASE_URL, CHATBENCH_TOKEN, CHATBENCH_JUDGE, START_AT, RUN_ID), CHATBENCH_PORT=0 so that
 * `serve` and `view` take a free port, and CHATBENCH_TEST_SPEEDUP so that a minute-long example
 * takes a fraction of a second (cli/options/speedup: schedule lengths divided, the embedded
 * simulator faster); and a working directory as a user would have it, small: the files the
 * examples name (datasets/sample.csv with four questions and a conversation, examples/ as shipped,
 * q.csv and tokens.txt for the README, runs of earlier commands under the names the examples use).
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadCorpus, startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { createFakeIo } from './fake-io.js';
import { runExample } from './run-example.js';

export const ROOT = join(import.meta.dirname, '..', '..');
export const TOKEN = 'onyx_pat_chatbench_demo';

export interface ExamplesWorld {
  readonly sim: RunningSimulator;
  /** The file's scratch root (the examples' HOME). */
  readonly base: string;
  /** The examples' environment. */
  readonly env: Record<string, string>;
  /** A fresh copy of the examples' working directory, less `except` (runs an example writes itself). */
  world(except?: readonly string[]): string;
  /** Runs `line` in `cwd` as printed: exit 0 (1 allowed where a gate may fail), no stack trace. */
  expectRuns(line: string, cwd: string): Promise<void>;
}

interface Setup {
  readonly sim: RunningSimulator;
  readonly env: Record<string, string>;
}

/** Examples that may exit 1: a gate, an SLO or a capacity search can fail on four questions. */
const mayFail = (line: string) => /--gate |--gates-file |--slo |--baseline | capacity /.test(line);

/**
 * A setup run: no judge (nothing reads the verdicts of the runs the examples read) and not in the
 * run history (no example reads a setup run from it; registering cost ~0.25 s a run), so setup stays quick.
 */
async function chatbench(setup: Setup, cwd: string, args: string[]): Promise<void> {
  const fake = createFakeIo({
    env: Object.fromEntries(Object.entries(setup.env).filter(([k]) => !k.startsWith('CHATBENCH_JUDGE'))),
    cwd,
  });
  const code = await main([...args, '--no-history'], fake.io);
  if (code !== 0) throw new Error(`setup: chatbench ${args.join(' ')} exited ${code}: ${fake.stderr()}`);
}

/**
 * The runs the examples read, by what makes them: `eval` reports/2026-11-20T10-00-00-eval (and its
 * copies reports/new, runs/a, runs/b), `old-new` two runs of renamed sets, `shards` runs/shard-1…4
 * (an eval sharded over m.json's sets), `r1-shards` runs/r1/shard-1…2, `load`
 * reports/2026-11-20T10-00-00-load, `load-shards` load-1…3. Each file makes only those its examples
 * read: a setup run costs as much as an example.
 */
export type SetupRuns = 'eval' | 'old-new' | 'shards' | 'r1-shards' | 'load' | 'load-shards';
export const ALL_SETUP_RUNS: readonly SetupRuns[] = ['eval', 'old-new', 'shards', 'r1-shards', 'load', 'load-shards'];

/** The working directory with what the examples name, and the `runs` they read, made once per file. */
async function makeTemplate(setup: Setup, base: string, runs: readonly SetupRuns[]): Promise<string> {
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
    JSON.stringify({ 'base-url': setup.sim.baseUrl, 'token-file': 'examples/token.txt' }),
  );
  writeFileSync(join(cwd, 'tokens.txt'), `${TOKEN} 4\nonyx_pat_chatbench_second_user 1\n`);
  writeFileSync(join(cwd, 'token.txt'), `${TOKEN}\n`);
  writeFileSync(join(cwd, 'prod.json'), JSON.stringify({ 'base-url': setup.sim.baseUrl, 'token-file': 'token.txt' }));
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
    chatbench(setup, cwd, ['eval', '--dataset', 'q.csv', '--out', out, ...more]);
  const loadRun = (out: string, ...more: string[]) =>
    chatbench(setup, cwd, ['load', '--dataset', 'q.csv', '--mode', 'full', '--out', out, ...more]);
  const make: Record<SetupRuns, () => Promise<void>> = {
    eval: async () => {
      await evalRun('reports/2026-11-20T10-00-00-eval');
      for (const copy of ['reports/new', 'runs/a', 'runs/b'])
        cpSync(join(cwd, 'reports/2026-11-20T10-00-00-eval'), join(cwd, copy), { recursive: true });
    },
    'old-new': async () => {
      await evalRun('old', '--set', 'fast=openai:gpt-4o-mini@0', '--set', 'accurate=openai:gpt-4o@0');
      await evalRun('new', '--set', 'fast-v2=openai:gpt-4o-mini@0', '--set', 'accurate=openai:gpt-4o@0');
    },
    shards: async () => {
      for (const i of [1, 2, 3, 4]) await evalRun(`runs/shard-${i}`, '--sets-file', 'm.json', '--shard', `${i}/4`);
    },
    'r1-shards': async () => {
      for (const i of [1, 2]) await evalRun(`runs/r1/shard-${i}`, '--shard', `${i}/2`);
    },
    load: () => loadRun('reports/2026-11-20T10-00-00-load', '--rate', '20', '--requests', '4'),
    'load-shards': async () => {
      for (const i of [1, 2, 3]) await loadRun(`load-${i}`, '--rate', '30', '--duration', '30s', '--shard', `${i}/3`);
    },
  };
  for (const name of runs) await make[name]();
  return cwd;
}

async function expectRuns(env: Record<string, string>, line: string, cwd: string): Promise<void> {
  // Never anywhere but loopback: an example that names a real host must take it from the environment.
  expect(line).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)/);
  const run = await runExample(line, { env, cwd });
  const allowed = mayFail(line) ? [0, 1] : [0];
  expect(allowed, `${line}\nexit ${run.code}\n${run.stderr}`).toContain(run.code);
  expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
}

/**
 * The examples' world of the calling test file: made in its beforeAll (the simulator, then the
 * template directory and the setup `runs` its examples read), removed in its afterAll; the tests
 * read it by the getter. `moreEnv` is added to the examples' environment (the make file's history off).
 */
export function useExamplesWorld(
  runs: readonly SetupRuns[],
  moreEnv: Readonly<Record<string, string>> = {},
): () => ExamplesWorld {
  let made: ExamplesWorld | undefined;
  let sim: RunningSimulator | undefined;
  let base: string | undefined;
  beforeAll(async () => {
    sim = await startSimulator({ config: { chat: { time_scale: 0.003 } }, corpus: await loadCorpus() });
    const root = mkdtempSync(join(tmpdir(), 'chatbench-examples-'));
    base = root;
    const env = {
      CHATBENCH_BASE_URL: sim.baseUrl,
      CHATBENCH_TOKEN: TOKEN,
      CHATBENCH_TEST_SPEEDUP: '600',
      CHATBENCH_PORT: '0',
      // The judge the examples name by CHATBENCH_JUDGE: the simulator's rule-based one (an OpenAI-compatible route).
      CHATBENCH_JUDGE: new URL(sim.baseUrl).origin,
      CHATBENCH_JUDGE_MODEL: 'any-name',
      CHATBENCH_JUDGE_FIGURES: 'correctness',
      CHATBENCH_JUDGE_CACHE_DIR: join(root, 'judge-cache'),
      RUN_ID: 'r1',
      HOME: root,
      BROWSER: 'true',
      START_AT: new Date(Date.now() - 1000).toISOString(),
      ...moreEnv,
    };
    const template = await makeTemplate({ sim, env }, root, runs);
    made = {
      sim,
      base: root,
      env,
      world(except = []) {
        const cwd = mkdtempSync(join(root, 'cwd-'));
        cpSync(template, cwd, { recursive: true });
        for (const dir of except) rmSync(join(cwd, dir), { recursive: true, force: true });
        return cwd;
      },
      expectRuns: (line, cwd) => expectRuns(env, line, cwd),
    };
  }, 120_000);
  afterAll(async () => {
    await sim?.close();
    if (base) rmSync(base, { recursive: true, force: true });
  });
  return () => {
    if (made === undefined) throw new Error('the examples world is made in beforeAll');
    return made;
  };
}
