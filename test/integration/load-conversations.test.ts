/**
 * `chatbench load --conversations` end to end against the simulator: users play the sample's
 * conversations in one session each, later turns follow their predecessor's end plus the think
 * time, the figures come per turn, and the time to the first token rises with the history as the
 * simulator's profile says (read from the service's own pre_answer_processing_seconds, which the
 * profile decides exactly: no wall-clock assertion). Bad --think-time is refused (exit 2).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { LoadSummarySchema } from '../../src/records/load-summary.js';
import { RequestRecordSchema, type RequestRecord } from '../../src/records/record.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const fixed = (ms: number) => ({ median: ms, p99: ms });
/** Fixed delays, and 2 ms of time to the first token per token of history (before time_scale). */
const profile = {
  chat: {
    time_scale: 0.01,
    profiles: {
      default: { pre_answer_ms: fixed(200), first_token_ms: fixed(500), token_ms: fixed(5), history_ms_per_token: 2 },
    },
  },
};
const HEADER = 'id,question,expected_documents,conversation,turn';
const ROWS = [
  'p1,How many days of paid time off does a full-time employee get each year?,hr-pto-policy,pto,1',
  'p2,How many of those can I carry over?,hr-pto-policy,pto,2',
  'p3,Until what date can I still use them?,hr-pto-policy,pto,3',
];

async function load(args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'chatbench-load-conv-'));
  const dataset = join(dir, 'conversations.csv');
  writeFileSync(dataset, `${HEADER}\n${ROWS.join('\n')}\n`);
  const out = join(dir, 'run');
  const fake = createFakeIo();
  const code = await main(['load', '--dataset', dataset, '--out', out, ...args], fake.io);
  return { code, out, stderr: fake.stderr() };
}
const records = (out: string): RequestRecord[] =>
  readFileSync(join(out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => RequestRecordSchema.parse(JSON.parse(line)));

describe('load --conversations', () => {
  it('plays whole conversations per user, and the first token comes later with depth as the profile says', async () => {
    const sim = await startSim({ config: profile });
    const run = await load([
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--conversations',
      '--concurrency',
      '2',
      '--requests',
      '4',
      '--think-time',
      '10ms..30ms',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('(conversations, think time 10ms..30ms)');
    const all = records(run.out);
    expect(all).toHaveLength(12);
    for (const repeat of [0, 1, 2, 3]) {
      const turns = all.filter((r) => r.repeat === repeat).sort((a, b) => a.turn! - b.turn!);
      expect(
        turns.map((r) => [r.turn, r.session, r.outcome]),
        JSON.stringify(turns.map((r) => r.error_message)),
      ).toEqual([
        [1, 'new', 'ok'],
        [2, 'continued', 'ok'],
        [3, 'continued', 'ok'],
      ]);
      expect(new Set(turns.map((r) => r.chat_session_id)).size).toBe(1);
      // Each later turn is scheduled after its predecessor's end plus 10–30 ms of thinking.
      for (const [before, after] of [
        [turns[0]!, turns[1]!],
        [turns[1]!, turns[2]!],
      ] as const) {
        const end = before.scheduled_offset_ms! + before.response_ms!;
        expect(after.scheduled_offset_ms! - end).toBeGreaterThanOrEqual(10);
        expect(after.scheduled_offset_ms! - end).toBeLessThanOrEqual(30.001);
      }
      // The service's own pre-answer time: (200 + 500 + 2 × history tokens) ms × 0.01, growing with each turn.
      const pre = turns.map((r) => r.pre_answer_processing_seconds!);
      expect(pre[0]).toBe(0.007);
      expect(pre[1]!).toBeGreaterThan(pre[0]!);
      expect(pre[2]!).toBeGreaterThan(pre[1]!);
    }
    const summary = LoadSummarySchema.parse(JSON.parse(readFileSync(join(run.out, 'summary.json'), 'utf8')));
    expect(Object.keys(summary.by_turn)).toEqual(['1', '2', '3']);
    expect(summary.by_turn['2']).toMatchObject({ sent: 4, outcomes: { ok: 4 } });
    expect(readFileSync(join(run.out, 'report.md'), 'utf8')).toContain('## By turn (conversations, measured window)');
    expect(JSON.parse(readFileSync(join(run.out, 'generator.json'), 'utf8')).conversations).toEqual({
      started: 4,
      skipped_turns: 0,
    });
  });

  it('refuses a bad --think-time, one without --conversations, or a gate on a turn the plan lacks, before sending anything (exit 2)', async () => {
    const bad = await load([
      '--sim',
      '--conversations',
      '--concurrency',
      '1',
      '--requests',
      '1',
      '--think-time',
      '8s..2s',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--think-time: "8s..2s": the lower bound (8000 ms) is above the upper (2000 ms)');
    const alone = await load(['--sim', '--concurrency', '1', '--requests', '1', '--think-time', '2s']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain(
      '--think-time: it is the wait between the turns of a conversation: give --conversations too',
    );
    // A turn:N gate names a turn the plan has, checked before anything is sent (no results.jsonl).
    const deep = await load([
      '--sim',
      '--conversations',
      '--concurrency',
      '1',
      '--requests',
      '1',
      '--gate',
      'turn:4 ttft_ms.p95 <= 4000',
    ]);
    expect(deep.code).toBe(2);
    expect(deep.stderr).toContain(
      '--gate "turn:4 ttft_ms.p95 <= 4000": turn:4 names no turn of the run (its longest conversation has 3 turns)',
    );
    expect(existsSync(join(deep.out, 'results.jsonl'))).toBe(false);
    const flat = await load(['--sim', '--concurrency', '1', '--requests', '1', '--gate', 'turn:2 ttft_ms.p95 <= 4000']);
    expect(flat.code).toBe(2);
    expect(flat.stderr).toContain('turn:2 names no turn of the run (turns are played with --conversations)');
  });
});
