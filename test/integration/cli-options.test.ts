/**
 * Where options come from and how the output looks, end to end through main() against the
 * simulator: the same load run from flags, from chatbench.config.json, from a YAML --config and from
 * CHATBENCH_* variables records the same options in its manifest (with different sources); flags
 * win over the environment, which wins over the file; a bad file or variable is every problem at
 * once, exit 2, nothing sent; --json, --quiet, --verbose and colour.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { RunningSimulator } from '../../src/sim/index.js';
import { startSimulator, loadCorpus } from '../../src/sim/index.js';
import { createFakeIo } from '../helpers/fake-io.js';

const ROOT = join(import.meta.dirname, '..', '..');
const DATASET = join(ROOT, 'datasets', 'sample.csv');
let sim: RunningSimulator;
let dir: string;

beforeAll(async () => {
  sim = await startSimulator({ config: { chat: { time_scale: 0.01 } }, corpus: await loadCorpus() });
  dir = mkdtempSync(join(tmpdir(), 'chatbench-options-'));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

let runs = 0;
/** Runs `chatbench ARGS` in-process in `cwd` with `env`. */
async function run(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}) {
  // The simulator's demo token, unless the test sets CHATBENCH_TOKEN itself or gives --token.
  const env = args.includes('--token')
    ? (options.env ?? {})
    : { CHATBENCH_TOKEN: 'onyx_pat_chatbench_demo', ...options.env };
  const fake = createFakeIo({ env, cwd: options.cwd ?? dir });
  const code = await main(args, fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}
const freshDir = () => mkdtempSync(join(dir, 'cwd-'));
const outDir = () => join(dir, `run-${++runs}`);
const manifest = (out: string) =>
  JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as {
    invocation: { config_file: string | null; options: Record<string, unknown>; sources: Record<string, string> };
  };
const LOAD = () => ({
  dataset: DATASET,
  'base-url': sim.baseUrl,
  rate: 50,
  requests: 4,
  mode: 'full',
  slo: ['total_ms.p95<=60000'],
});

describe('the same load run from every source', () => {
  it('records the same options in the manifest, each with its source', async () => {
    const options = LOAD();
    const token = 'onyx_pat_chatbench_demo';
    const flags = [
      'load',
      '--dataset',
      options.dataset,
      '--base-url',
      options['base-url'],
      '--rate',
      '50',
      '--requests',
      '4',
      '--mode',
      'full',
      '--slo',
      options.slo[0]!,
      '--token',
      token,
    ];

    const outFlags = outDir();
    expect((await run([...flags, '--out', outFlags])).code).toBe(0);

    const cwdJson = freshDir();
    writeFileSync(
      join(cwdJson, 'chatbench.config.json'),
      JSON.stringify({ 'base-url': options['base-url'], load: { ...options, token } }),
    );
    const outJson = outDir();
    expect((await run(['load', '--out', outJson], { cwd: cwdJson })).code).toBe(0);

    const yamlFile = join(freshDir(), 'bench.yaml');
    writeFileSync(
      yamlFile,
      `# a load run\nload:\n  dataset: ${options.dataset}\n  base-url: ${options['base-url']}\n  rate: 50\n  requests: 4\n  mode: full\n  slo:\n    - "total_ms.p95<=60000"\n`,
    );
    const outYaml = outDir();
    expect(
      (await run(['load', '--config', yamlFile, '--out', outYaml], { env: { CHATBENCH_TOKEN: token } })).code,
    ).toBe(0);

    const outEnv = outDir();
    const env = {
      CHATBENCH_DATASET: options.dataset,
      CHATBENCH_BASE_URL: options['base-url'],
      CHATBENCH_RATE: '50',
      CHATBENCH_REQUESTS: '4',
      CHATBENCH_MODE: 'full',
      CHATBENCH_SLO: options.slo[0]!,
      CHATBENCH_TOKEN: token,
    };
    expect((await run(['load', '--out', outEnv], { env })).code).toBe(0);

    const [a, b, c, d] = [outFlags, outJson, outYaml, outEnv].map((out) => manifest(out).invocation);
    const withoutOut = (o: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'out'));
    expect(withoutOut(b!.options)).toEqual(withoutOut(a!.options));
    expect(withoutOut(c!.options)).toEqual(withoutOut(a!.options));
    expect(withoutOut(d!.options)).toEqual(withoutOut(a!.options));
    expect(a!.options).toMatchObject({
      rate: 50,
      requests: 4,
      mode: 'full',
      token: ['[redacted]'],
      arrival: 'constant',
    });
    expect(JSON.stringify([a, b, c, d])).not.toContain(token);
    expect([a!.sources.rate, b!.sources.rate, c!.sources.rate, d!.sources.rate]).toEqual([
      'flag',
      'file chatbench.config.json (load.rate)',
      `file ${yamlFile} (load.rate)`,
      'env CHATBENCH_RATE',
    ]);
    expect([a!.config_file, b!.config_file, c!.config_file]).toEqual([null, 'chatbench.config.json', yamlFile]);
    expect(a!.sources.arrival).toBe('default');
    expect(c!.sources.token).toBe('env CHATBENCH_TOKEN');
  });

  it("flags win over the environment, which wins over the file; a flag replaces the file's alternative", async () => {
    const cwd = freshDir();
    writeFileSync(
      join(cwd, 'chatbench.config.json'),
      JSON.stringify({ load: { ...LOAD(), rate: 5, timeout: '30s', grace: '3s', concurrency: undefined }, retries: 1 }),
    );
    const out = outDir();
    // The file says --rate; the command line says --concurrency: the closed model, no conflict.
    const result = await run(['load', '--concurrency', '2', '--out', out], {
      cwd,
      env: { CHATBENCH_TIMEOUT: '20s', CHATBENCH_GRACE: '2s' },
    });
    expect(result.stderr).toBe(result.stderr.replace(/conflict/, ''));
    expect(result.code).toBe(0);
    const { options, sources } = manifest(out).invocation;
    expect(options).toMatchObject({ concurrency: 2, timeout: '20s', grace: '2s', retries: 1 });
    expect(options.rate).toBeUndefined();
    expect(sources).toMatchObject({
      concurrency: 'flag',
      timeout: 'env CHATBENCH_TIMEOUT',
      retries: 'file chatbench.config.json (retries)',
    });
  });
});

describe('problems in a config file or the environment', () => {
  it('lists every one with its file and key or variable, exit 2, nothing sent', async () => {
    const cwd = freshDir();
    writeFileSync(
      join(cwd, 'chatbench.config.json'),
      JSON.stringify({
        rate: 'fast',
        concurency: 4,
        repeat: 2,
        load: { mode: 'sideways', bogus: 1 },
        eval: { nope: true },
      }),
    );
    const out = outDir();
    const result = await run(
      ['load', '--dataset', DATASET, '--base-url', sim.baseUrl, '--requests', '2', '--out', out],
      { cwd, env: { CHATBENCH_REQUESTS: 'many' } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('chatbench: CHATBENCH_REQUESTS: expected a number, got "many"');
    for (const line of [
      'chatbench.config.json: rate: expected a number, got "fast"',
      'chatbench.config.json: load.mode: expected one of stream, full, got "sideways"',
      'chatbench.config.json: load.bogus: not an option of chatbench load',
      'chatbench.config.json: concurency: not an option of any chatbench command (did you mean "concurrency"?)',
      'chatbench.config.json: eval.nope: not an option of chatbench eval',
    ])
      expect(result.stderr).toContain(line);
    // `repeat` is an option of eval: a shared file may hold it.
    expect(result.stderr).not.toContain('repeat');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });

  it("a refusal of a value names where it came from: the file's key, the variable, else the flag", async () => {
    const cwd = freshDir();
    writeFileSync(join(cwd, 'chatbench.config.json'), JSON.stringify({ load: { rate: -1 } }));
    const args = ['load', '--dataset', DATASET, '--base-url', sim.baseUrl, '--requests', '2', '--out', outDir()];
    const fromFile = await run(args, { cwd });
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toMatch(/^chatbench: chatbench\.config\.json: load\.rate must be/);
    const fromEnv = await run(args, { env: { CHATBENCH_RATE: '-1' } });
    expect(fromEnv.stderr).toMatch(/^chatbench: CHATBENCH_RATE must be/);
    const fromFlag = await run([...args, '--rate', '-1'], { cwd });
    expect(fromFlag.stderr).toMatch(/^chatbench: --rate must be/);
  });

  it('a file that is not JSON or YAML names the line', async () => {
    const file = join(freshDir(), 'c.yaml');
    writeFileSync(file, 'load:\n  rate: [1\n');
    const result = await run(['validate', '--dataset', DATASET, '--config', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^chatbench: .*c\.yaml:3:1: not YAML/);
    const missing = await run(['validate', '--dataset', DATASET, '--config', 'nowhere.json']);
    expect(missing.stderr).toBe('chatbench: nowhere.json: cannot read the config file (ENOENT)\n');
  });
});

describe('output modes', () => {
  it('--json prints only the result on stdout, one JSON document; progress stays on stderr', async () => {
    const out = outDir();
    const result = await run([
      'load',
      '--dataset',
      DATASET,
      '--base-url',
      sim.baseUrl,
      '--rate',
      '50',
      '--requests',
      '3',
      '--mode',
      'full',
      '--gate',
      'error_rate <= 0.5',
      '--out',
      out,
      '--json',
    ]);
    expect(result.code).toBe(0);
    const json = JSON.parse(result.stdout) as {
      command: string;
      exit_code: number;
      verdict: string;
      summary: { windows: { measured: { sent: number } } };
      gates: unknown[];
    };
    expect(json).toMatchObject({ command: 'load', exit_code: 0, verdict: 'PASSED: the gate passed · 3 requests' });
    expect(json.summary.windows.measured.sent).toBe(3);
    expect(result.stderr).toContain('chatbench load:');
  });

  it('--json of a refused command is JSON too, with its errors', async () => {
    const result = await run(['load', '--dataset', DATASET, '--base-url', sim.baseUrl, '--json']);
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({
      command: 'load',
      exit_code: 2,
      errors: [expect.stringContaining('--rate')],
    });
  });

  it('--quiet prints the verdict and nothing else; a failed gate still shows', async () => {
    const result = await run([
      'load',
      '--dataset',
      DATASET,
      '--base-url',
      sim.baseUrl,
      '--rate',
      '50',
      '--requests',
      '2',
      '--mode',
      'full',
      '--gate',
      'ok_rate <= 0.1',
      '--out',
      outDir(),
      '--quiet',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('FAILED: 1 of 1 gate failed (ok_rate 100% > 10%) · 2 requests\n');
    expect(result.stderr).toMatch(/^gate failed: ok_rate <= 0\.1 failed/);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('--verbose adds a line per request on stderr', async () => {
    const result = await run([
      'load',
      '--dataset',
      DATASET,
      '--base-url',
      sim.baseUrl,
      '--rate',
      '50',
      '--requests',
      '3',
      '--mode',
      'full',
      '--out',
      outDir(),
      '--verbose',
    ]);
    expect(result.code).toBe(0);
    const lines = result.stderr
      .split('\n')
      .filter((l) => /^\+\d+\.\d\ds \S+\|default\|full\|\d+ ok 200 · TTFP/.test(l));
    expect(lines).toHaveLength(3);
  });

  it('colours the verdict with FORCE_COLOR, not with NO_COLOR or --no-color, never in a pipe by default', async () => {
    const args = ['validate', '--dataset', DATASET];
    expect((await run(args, { env: { FORCE_COLOR: '1' } })).stdout).toContain('\x1b[32mOK\x1b[39m: nothing was sent.');
    expect((await run([...args, '--no-color'], { env: { FORCE_COLOR: '1' } })).stdout).not.toContain('\x1b[');
    expect((await run(args, { env: { NO_COLOR: '1' } })).stdout).not.toContain('\x1b[');
    expect((await run(args)).stdout).not.toContain('\x1b[');
    expect((await run(args, { env: { CHATBENCH_COLOR: 'true' } })).stdout).toContain('\x1b[32m');
  });
});

describe('the end-of-run summary of a load run', () => {
  it('throughput, latency percentiles with response_ms, every objective with its figure, the generator in one line', async () => {
    const result = await run([
      'load',
      '--dataset',
      DATASET,
      '--base-url',
      sim.baseUrl,
      '--rate',
      '50',
      '--requests',
      '4',
      '--mode',
      'full',
      '--slo',
      'total_ms.p95<=60000',
      '--gate',
      'error_rate <= 0.5',
      '--out',
      outDir(),
    ]);
    expect(result.code).toBe(0);
    const text = result.stdout;
    expect(text).toMatch(
      /throughput \(measured window, [\d.]+ s\)\n {2}offered [\d.]+\/s · sent [\d.]+\/s · ok [\d.]+\/s · 429 0\.0\/s · errors 0\.0\/s · goodput [\d.]+\/s/,
    );
    expect(text).toMatch(/latency of ok requests +p50 +p95 +p99/);
    for (const row of ['TTFP', 'TTFT', 'total', 'response_ms'])
      expect(text).toMatch(new RegExp(`\\n {2}${row} +(\\S+ ms|–) +`));
    expect(text).toMatch(/✓ SLO +total_ms\.p95<=60000 +[\d,.]+ ms/);
    expect(text).toMatch(/✓ gate error_rate <= 0\.5 +0%/);
    expect(text).toMatch(/\n(generator: (kept up|fell behind)|warning: the load generator)/);
    expect(text.trimEnd().split('\n').at(-1)).toBe('PASSED: the SLO met; the gate passed · 4 requests');
  });
});

describe('SLOs are thresholds (issue 22)', () => {
  it('a broken SLO fails the run: exit 1, the verdict line names it, report.md and --json say the same', async () => {
    const out = outDir();
    const result = await run([
      'load',
      '--dataset',
      DATASET,
      '--base-url',
      sim.baseUrl,
      '--rate',
      '50',
      '--requests',
      '3',
      '--mode',
      'full',
      '--slo',
      'total_ms.p95<=0.001',
      '--slo',
      'error_rate<=0.5',
      '--out',
      out,
      '--json',
    ]);
    expect(result.code).toBe(1);
    const json = JSON.parse(result.stdout) as {
      exit_code: number;
      verdict: string;
      decision: { status: string; exit_code: number };
    };
    expect(json.verdict).toMatch(/^FAILED: 1 of 2 SLOs broken \(total_ms\.p95 [\d,.]+ ms > 0 ms\) · 3 requests$/);
    expect(json.decision).toMatchObject({ status: 'failed', exit_code: 1 });
    expect(json.exit_code).toBe(1);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain(`**${json.verdict}** (exit 1)`);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('verdict-failed');
  });

  it('an SLO written goodput: only defines goodput and never fails the run', async () => {
    const result = await run([
      'load',
      '--dataset',
      DATASET,
      '--base-url',
      sim.baseUrl,
      '--rate',
      '50',
      '--requests',
      '2',
      '--mode',
      'full',
      '--slo',
      'goodput:total_ms<=0.001',
      '--out',
      outDir(),
      '--quiet',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('DONE: no gate or SLO set · 2 requests\n');
  });
});

describe('validate warnings', () => {
  it('warns (exit 0) about a comma inside an expected id and, with --sim or --corpus, ids not in the corpus', async () => {
    const cwd = freshDir();
    writeFileSync(
      join(cwd, 'q.csv'),
      'id,question,expected_documents\nq1,How many days off?,"hr-001,hr-002"\nq2,What is the VPN?,no-such-doc\nq3,Leave?,\n',
    );
    const plain = await run(['validate', '--dataset', 'q.csv'], { cwd });
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe(
      'warning: q.csv:2: expected_documents: "hr-001,hr-002" is one id holding a comma; ids are separated by "|" ("hr-001|hr-002") or given as a JSON array\n',
    );
    const sim = await run(['validate', '--dataset', 'q.csv', '--sim', '--json'], { cwd });
    expect(sim.code).toBe(0);
    expect(sim.stderr).toContain('warning: q.csv:3: expected_documents: "no-such-doc" is no document of the corpus');
    expect((JSON.parse(sim.stdout) as { warnings: string[] }).warnings).toHaveLength(2);
    writeFileSync(
      join(cwd, 'corpus.json'),
      JSON.stringify({ documents: [{ document_id: 'no-such-doc', title: 'kept' }] }),
    );
    const own = await run(['validate', '--dataset', 'q.csv', '--corpus', 'corpus.json'], { cwd });
    expect(own.code).toBe(0);
    expect(own.stderr.trimEnd().split('\n')).toEqual([expect.stringContaining('holding a comma')]);
    writeFileSync(join(cwd, 'bad.json'), JSON.stringify({ docs: [] }));
    const bad = await run(['validate', '--dataset', 'q.csv', '--corpus', 'bad.json'], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^chatbench: bad\.json: documents: /);
  });
});
