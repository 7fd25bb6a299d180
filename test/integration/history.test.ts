/**
 * Issue 29 end to end: evals and a load against the simulator register in the run history; the
 * history lists them with their figures, a figure's trend comes back in order, `query` over a
 * run's results.jsonl gives the TTFT p95 of its summary.json, and runs ending at once all register.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { spawnCli } from '../helpers/spawn-cli.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const sample = join(import.meta.dirname, '../../datasets/sample.csv');

function smallDataset(dir: string): string {
  const path = join(dir, 'questions.csv');
  const [header, ...rows] = readFileSync(sample, 'utf8').trimEnd().split('\n');
  writeFileSync(
    path,
    [header, ...rows.filter((row) => !row.endsWith(',internal_search')).slice(0, 8)].join('\n') + '\n',
  );
  return path;
}

async function cli(args: string[], history: string) {
  const fake = createFakeIo({ env: { CHATBENCH_HISTORY: history } });
  const code = await main(args, fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

const json = async (args: string[], history: string) => {
  const r = await cli([...args, '--json'], history);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
};

describe('chatbench history', () => {
  it(
    'registers evals and a load, lists them, trends a figure, finds the last passing run, queries results',
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'chatbench-history-'));
      const history = join(dir, 'reports', 'history.duckdb');
      const dataset = smallDataset(dir);
      const sim = await startSim();
      const evalArgs = (out: string, gate: string) => [
        'eval',
        '--base-url',
        sim.baseUrl,
        '--token',
        TOKENS.demo,
        '--dataset',
        dataset,
        '--set',
        'fast=openai:gpt-4o@0',
        '--concurrency',
        '8',
        '--out',
        join(dir, out),
        '--gate',
        gate,
      ];
      expect((await cli(evalArgs('e1', 'pass_rate >= 0'), history)).code).toBe(0);
      expect((await cli(evalArgs('e2', 'ttft_ms.p50 <= 0'), history)).code).toBe(1);
      // Two runs ending at once both register (the store takes one writer at a time).
      const [e3, e4] = await Promise.all([
        cli(evalArgs('e3', 'pass_rate >= 0'), history),
        cli(evalArgs('e4', 'ttft_ms.p50 <= 0'), history),
      ]);
      expect([e3.code, e4.code]).toEqual([0, 1]);
      const load = await cli(
        [
          'load',
          '--base-url',
          sim.baseUrl,
          '--token',
          TOKENS.demo,
          '--dataset',
          dataset,
          '--rate',
          '20',
          '--requests',
          '4',
          '--out',
          join(dir, 'l1'),
        ],
        history,
      );
      expect(load.code, load.stderr).toBe(0);

      const listed = await json(['history'], history);
      expect(listed.runs.map((r: { id: string }) => r.id).sort()).toEqual(['e1', 'e2', 'e3', 'e4', 'l1']);
      const e1 = listed.runs.find((r: { id: string }) => r.id === 'e1');
      expect(e1).toMatchObject({
        command: 'eval',
        verdict: 'passed',
        exit_code: 0,
        base_url: sim.baseUrl.replace(/\/$/, ''),
      });
      const summary = JSON.parse(readFileSync(join(dir, 'e1', 'summary.json'), 'utf8'));
      const group = summary.groups.find((g: { set: string; mode: string }) => g.set === 'fast');
      const recall = e1.figures.find(
        (f: { figure: string; mode: string }) => f.figure === 'citation_recall' && f.mode === group.mode,
      );
      expect(recall).toMatchObject({
        set_name: 'fast',
        value: group.scores.citation_recall.mean,
        ci_low: group.scores.citation_recall.ci_low,
        n: group.scores.citation_recall.n,
      });
      expect(
        listed.runs
          .find((r: { id: string }) => r.id === 'l1')
          .figures.some((f: { figure: string }) => f.figure === 'ttft_ms.p95'),
      ).toBe(true);
      expect(
        (await json(['history', '--command', 'eval', '--verdict', 'failed'], history)).runs
          .map((r: { id: string }) => r.id)
          .sort(),
      ).toEqual(['e2', 'e4']);

      const trend = await json(['history', 'trend', 'citation_recall', '--set', 'fast'], history);
      const order = listed.runs
        .filter((r: { command: string }) => r.command === 'eval')
        .map((r: { id: string }) => r.id);
      expect([...new Set(trend.points.map((p: { id: string }) => p.id))]).toEqual(order);
      expect(trend.html).toBe(join(dir, 'reports', 'trend-citation_recall-fast.html'));
      const chart = readFileSync(trend.html, 'utf8');
      expect(chart).toContain('<svg');
      expect(chart).toContain('href="../e1/report.html"');
      expect((await cli(['history', 'trend', 'citation_recall', '--set', 'fast'], history)).stdout).toMatch(
        /citation_recall {2}[▁-█]+/,
      );

      // query: the p95 of a run's ok records' TTFT, the same number summary.json holds.
      const q = await json(
        [
          'query',
          `select quantile_cont(ttft_ms, 0.95) as p95 from results where outcome = 'ok' and set = 'fast' and mode = '${group.mode}' and ttft_ms is not null`,
          join(dir, 'e1'),
        ],
        history,
      );
      expect(q.rows[0].p95).toBeCloseTo(group.latency.ttft_ms.p95, 6);
      const csv = await cli(['query', "select id, verdict from runs where id = 'e1'", '--csv'], history);
      expect(csv.stdout).toBe('id,verdict\ne1,passed\n');
      const write = await cli(['query', 'delete from runs'], history);
      expect(write.code).toBe(2);
      expect(write.stderr).toMatch(/read-only/);

      // Baselines by query: the latest passing eval (e4 failed), on the branch of the working directory too.
      const compared = await json(['compare', 'last-passing', join(dir, 'e2'), '--out', join(dir, 'c1')], history);
      expect(compared.baseline_run).toBe(relative(process.cwd(), join(dir, 'e3')));
      const branch = listed.runs[0].git_branch;
      const e5 = await cli(
        [
          ...evalArgs('e5', 'pass_rate >= 0'),
          '--baseline',
          branch === null ? 'last-passing' : `last-passing:${branch}`,
        ],
        history,
      );
      expect(e5.code, e5.stderr).toBe(0);
      const after = (await json(['history'], history)).runs;
      expect(after.find((r: { id: string }) => r.id === 'e5').baseline_run).toBe(join(dir, 'e3'));
      expect(after.find((r: { id: string }) => r.id === 'c1')).toMatchObject({
        command: 'compare',
        baseline_run: join(dir, 'e3'),
      });
      expect((await cli(['compare', 'last-passing:no-such-branch', join(dir, 'e2')], history)).code).toBe(2);

      // Two processes registering at once into a fresh store (rebuilt from the run directories): both land.
      const rebuilt = join(dir, 'rebuilt.duckdb');
      const imports = [
        spawnCli(['history', 'import', join(dir, 'e1'), join(dir, 'e2')], { CHATBENCH_HISTORY: rebuilt }),
        spawnCli(['history', 'import', join(dir, 'e3'), join(dir, 'l1')], { CHATBENCH_HISTORY: rebuilt }),
      ];
      for (const p of imports) {
        expect((await p.exited).code, p.stderr()).toBe(0);
        expect(p.stderr()).toBe('');
      }
      expect((await json(['history'], rebuilt)).runs.map((r: { id: string }) => r.id).sort()).toEqual([
        'e1',
        'e2',
        'e3',
        'l1',
      ]);
      expect((await json(['history'], rebuilt)).runs.find((r: { id: string }) => r.id === 'e2')).toMatchObject({
        command: 'eval',
        verdict: 'failed',
        exit_code: 1,
      });
    },
  );

  it('refuses a corrupt store with exit 2 and the way to rebuild it; a run still passes, with a warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatbench-history-'));
    const corrupt = join(dir, 'history.duckdb');
    writeFileSync(corrupt, 'not a database, only bytes enough for a header ...................................');
    const listed = await cli(['history'], corrupt);
    expect(listed.code).toBe(2);
    expect(listed.stderr).toContain(corrupt);
    expect(listed.stderr).toContain('chatbench history import');
    const sim = await startSim();
    const run = await cli(
      [
        'load',
        '--base-url',
        sim.baseUrl,
        '--token',
        TOKENS.demo,
        '--dataset',
        smallDataset(dir),
        '--rate',
        '20',
        '--requests',
        '2',
        '--out',
        join(dir, 'l1'),
      ],
      corrupt,
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warning: the run was not added to the history/);
    const unregistered = await cli(
      [
        'load',
        '--base-url',
        sim.baseUrl,
        '--token',
        TOKENS.demo,
        '--dataset',
        smallDataset(dir),
        '--rate',
        '20',
        '--requests',
        '2',
        '--out',
        join(dir, 'l2'),
        '--no-history',
      ],
      corrupt,
    );
    expect(unregistered.code).toBe(0);
    expect(unregistered.stderr).not.toMatch(/not added to the history/);
    // Importing into it is refused too: its runs are not in the history, and the exit code says so.
    const imported = await cli(['history', 'import', join(dir, 'l1')], corrupt);
    expect(imported.code).toBe(2);
    expect(imported.stderr).toContain('chatbench history import');
  });
});
