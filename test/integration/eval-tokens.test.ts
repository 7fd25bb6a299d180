/**
 * Issue 27 §6: an eval against the simulator gives the token figures in summary.json, results.csv
 * and report.md, each set counted in its encoding — and results.jsonl, written while requests are
 * measured, holds none (the tokenizer runs when the reports are built).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

describe('eval: token figures', () => {
  it('counts output tokens per set encoding and reports TPOT per token, tokens/s, ITL and the run throughput', async () => {
    const sim = await startSim({ config: { chat: { time_scale: 0.02 } } });
    const dir = mkdtempSync(join(tmpdir(), 'chatbench-tokens-'));
    const dataset = join(dir, 'questions.csv');
    writeFileSync(
      dataset,
      'id,question\nq1,How many days of paid time off do employees get?\nq2,What is the expense reimbursement deadline?\n',
    );
    const sets = join(dir, 'sets.json');
    writeFileSync(sets, JSON.stringify({ sets: [{ name: 'o200k' }, { name: 'cl100k', encoding: 'cl100k_base' }] }));
    const out = join(dir, 'run');
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
        '--models',
        sets /* --sets-file on main; --models stays its alias */,
        '--concurrency',
        '2',
        '--out',
        out,
      ],
      fake.io,
    );
    expect(fake.stderr()).not.toMatch(/internal error/);
    expect(code).toBe(0);
    const lines = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.every((r) => !('output_tokens' in r) && 'time_per_delta_ms' in r && !('tpot_ms' in r))).toBe(true);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    for (const group of summary.groups) {
      expect(group.latency.output_tokens.count).toBe(2);
      expect(group.latency.output_tokens.p50).toBeGreaterThan(5);
      expect(group.latency.output_tokens_per_s.p50).toBeGreaterThan(0);
      // (total − TTFT) / (tokens − 1): 0 when a busy client read the whole answer in one chunk, so
      // positive only when each of the set's answers took time after its first token.
      const spans = lines
        .filter((r) => r['set'] === group.set)
        .map((r) => Number(r['total_ms']) - Number(r['ttft_ms']));
      expect(group.latency.tpot_per_token_ms.p50).toBeGreaterThanOrEqual(0);
      if (spans.every((span) => span >= 1)) expect(group.latency.tpot_per_token_ms.p50).toBeGreaterThan(0);
      expect(group.answer_gap_ms.count).toBeGreaterThan(0);
      expect(group.output_tokens_total).toBeGreaterThan(10);
      expect(group.output_throughput_tokens_per_s).toBeCloseTo(group.output_tokens_total / summary.run.duration_s, 1);
    }
    const csv = readFileSync(join(out, 'results.csv'), 'utf8').split('\n');
    expect(csv[0]).toContain('output_tokens,output_tokens_per_s,tpot_per_token_ms');
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    expect(report).toMatch(/TPOT per token p50/);
    expect(report).toMatch(/output tokens\/s p50/);
    expect(report).toMatch(/ITL p95/);
  });
});
