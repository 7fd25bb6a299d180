/**
 * Issue 4 end to end: one `chatbench eval --baseline DIR --gate ...` command per CI job, against
 * the simulator. The same profile twice passes with no significant delta; a worse citation
 * profile fails the citation gate (exit 1, naming the questions that broke); a slower profile fails
 * the latency ratio gate.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { SimConfigInput } from '../../src/sim/index.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const dataset = join(import.meta.dirname, '../../datasets/sample.csv');

/** The first 25 questions of the sample that are not conversation turns: enough for the paired statistics, one wave at concurrency 25. */
function smallDataset(dir: string): string {
  const path = join(dir, 'questions.csv');
  const [header, ...rows] = readFileSync(dataset, 'utf8').trimEnd().split('\n');
  writeFileSync(
    path,
    [header, ...rows.filter((row) => !row.endsWith(',internal_search')).slice(0, 25)].join('\n') + '\n',
  );
  return path;
}

/**
 * gpt-4o with fixed (not random) delays of real size: a first token at 500 ms, and a slower
 * profile (2,500 ms) that is unmistakable: a machine so busy that it adds the same delay d to both
 * would need d ≥ 3.5 s to pass it ((2500 + d) / (500 + d) ≤ 1.5). The latency gate asks for a
 * significant ratio, as a CI gate on shared runners should: `npm run test:stress` once saw the
 * unchanged profile's median at 713 → 1,249 ms (×1.75, within its timing uncertainty of 655 ms),
 * which a plain ratio gate failed. Tokens come 1 ms apart: no gate reads the answer's length in
 * time. What the test checks is what the gates decided.
 */
const fixed = (ms: number) => ({ median: ms, p99: ms });
const profile = (fields: Record<string, unknown> = {}): SimConfigInput => ({
  chat: {
    time_scale: 1,
    profiles: { 'gpt-4o': { pre_answer_ms: fixed(100), first_token_ms: fixed(500), token_ms: fixed(1), ...fields } },
  },
});

async function evalAgainst(
  config: SimConfigInput,
  out: string,
  extra: string[] = [],
  env: Record<string, string> = {},
) {
  const sim = await startSim({ config });
  const fake = createFakeIo({ env });
  const code = await main(
    [
      'eval',
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      smallDataset(join(out, '..')),
      '--set',
      'accurate=openai:gpt-4o@0',
      '--concurrency',
      '25',
      '--out',
      out,
      ...extra,
    ],
    fake.io,
  );
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

describe('eval --baseline --gate', () => {
  it(
    'passes on an unchanged service, fails with a readable explanation on a degraded one',
    { timeout: 180_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'chatbench-gates-'));
      const base = join(dir, 'baseline');
      expect((await evalAgainst(profile(), base)).code).toBe(0);

      const gates = [
        '--baseline',
        base,
        '--gate',
        'citation_recall delta >= -0.02 significant',
        '--gate',
        'pass_rate >= 0.8',
        '--gate',
        'ttft_ms.p50 ratio <= 1.5 significant',
      ];
      const summaryFile = join(dir, 'step-summary.md');
      writeFileSync(summaryFile, '');
      const same = await evalAgainst(profile(), join(dir, 'same'), gates, { GITHUB_STEP_SUMMARY: summaryFile });
      // The three gates and --max-error-rate's two (error_rate, rate_limited_rate at 0.1).
      expect(same.stderr).toContain('5 of 5 gates passed');
      expect(same.code).toBe(0);
      const comparison = JSON.parse(readFileSync(join(dir, 'same', 'compare.json'), 'utf8'));
      const significantScores = comparison.groups.flatMap(
        (g: { figures: Array<{ kind: string; figure: string; significant: boolean }> }) =>
          g.figures.filter((f) => f.kind !== 'latency' && f.significant).map((f) => f.figure),
      );
      expect(significantScores).toEqual([]);
      expect(readFileSync(summaryFile, 'utf8')).toContain('citation_recall');
      const junit = readFileSync(join(dir, 'same', 'junit.xml'), 'utf8');
      expect(junit).toContain('citation_recall delta &gt;= -0.02 significant');

      const worse = await evalAgainst(
        profile({ wrong_citation_rate: 0.6, missed_citation_rate: 0.5 }),
        join(dir, 'worse'),
        gates,
      );
      expect(worse.code, worse.stderr + worse.stdout).toBe(1);
      expect(worse.stderr).toMatch(
        /gate failed: citation_recall delta >= -0\.02 significant failed for set accurate\/stream/,
      );
      expect(worse.stderr).toMatch(/q0\d\d/);
      expect(readFileSync(join(dir, 'worse', 'junit.xml'), 'utf8')).toMatch(/<failure[^>]*citation_recall delta/);

      const slower = await evalAgainst(profile({ first_token_ms: fixed(2500) }), join(dir, 'slower'), gates);
      expect(slower.code, slower.stderr + slower.stdout).toBe(1);
      expect(slower.stderr).toMatch(/gate failed: ttft_ms\.p50 ratio <= 1\.5/);
      expect(slower.stderr).not.toMatch(/gate failed: citation_recall/);
    },
  );

  it('refuses a bad gate or a missing baseline before sending anything (exit 2)', async () => {
    const sim = await startSim();
    for (const [args, message] of [
      [['--gate', 'citation_recal >= 0.8'], /did you mean citation_recall/],
      [['--gate', 'citation_recall delta >= 0'], /needs a baseline/],
      [['--gate', 'set:nope pass_rate >= 0.5'], /set:nope names no set of the run/],
      [['--baseline', '/no/such/run'], /--baseline \/no\/such\/run: no such run/],
    ] as const) {
      const fake = createFakeIo();
      const code = await main(
        [
          'eval',
          '--base-url',
          sim.baseUrl,
          '--token',
          TOKENS.demo,
          '--dataset',
          dataset,
          '--set',
          'a=openai:gpt-4o',
          '--out',
          join(tmpdir(), 'never'),
          ...args,
        ],
        fake.io,
      );
      expect({ args, code }).toEqual({ args, code: 2 });
      expect(fake.stderr()).toMatch(message);
    }
    expect(sim.stats().requests).toBe(0);
  });
});
