/**
 * Issue 22: one verdict, one story. An eval of two sets on the simulator opens its terminal
 * output, report.md, report.html, junit.xml, verdict.json and --json with the same verdict, the
 * pairwise comparison of its sets among it; the exit code is the verdict's.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { VerdictSchema } from '../../src/verdict/index.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const dataset = join(import.meta.dirname, '../../datasets/sample.csv');

/** The first 12 single-turn questions of the sample. */
function smallDataset(dir: string): string {
  const path = join(dir, 'questions.csv');
  const [header, ...rows] = readFileSync(dataset, 'utf8').trimEnd().split('\n');
  writeFileSync(path, [header, ...rows.filter((row) => !row.endsWith(',internal_search')).slice(0, 12)].join('\n') + '\n');
  return path;
}

async function evalTwoSets(extra: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'chatbench-verdict-'));
  const out = join(dir, 'run');
  const sim = await startSim();
  const fake = createFakeIo();
  const code = await main([
    'eval', '--base-url', sim.baseUrl, '--token', TOKENS.demo, '--dataset', smallDataset(dir), '--mode', 'full',
    '--set', 'accurate=openai:gpt-4o@0', '--set', 'fast=openai:gpt-4o-mini@0', '--concurrency', '12', '--out', out, '--json', ...extra,
  ], fake.io);
  await sim.close();
  return { code, out, json: JSON.parse(fake.stdout()) as { exit_code: number; verdict: string; decision: unknown } };
}

describe('one verdict in every output (issue 22)', () => {
  it.each([
    { name: 'passing gate', gate: 'pass_rate >= 0', status: 'passed', code: 0 },
    { name: 'failing gate', gate: 'pass_rate >= 1.01', status: 'failed', code: 1 },
  ])('$name: the exit code, --json, verdict.json, report.md, report.html and junit.xml agree', { timeout: 30_000 }, async ({ gate, status, code }) => {
    const { code: exit, out, json } = await evalTwoSets(['--gate', gate]);
    const verdict = VerdictSchema.parse(json.decision);
    expect([exit, json.exit_code, verdict.exit_code, verdict.status]).toEqual([code, code, code, status]);
    expect(json.verdict).toBe(verdict.headline);
    expect(VerdictSchema.parse(JSON.parse(readFileSync(join(out, 'verdict.json'), 'utf8')))).toEqual(verdict);
    // The pairwise comparison of the two sets, on the same questions.
    expect(verdict.comparisons).toHaveLength(1);
    expect(verdict.comparisons[0]).toMatch(/^fast vs accurate: pass rate [+-±][\d.]+ pts .*n = 12 questions.*· (no clear winner|best: (fast|accurate))/);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain(`**${verdict.headline}** (exit ${code})`);
    expect(md).toContain(`- ${verdict.comparisons[0]}`);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    expect(html).toContain(`verdict-${status}`);
    const junit = readFileSync(join(out, 'junit.xml'), 'utf8');
    expect(/<failure[^>]*pass_rate &gt;= 1\.01/.test(junit)).toBe(status === 'failed');
  });

  it('--reference names a set of the run, else exit 2 before anything is sent', async () => {
    const { code } = await evalTwoSets(['--reference', 'nope']).catch(() => ({ code: -1 }));
    expect(code).toBe(2);
  });
});
