/**
 * Issue 15 end to end: a conversation dataset through `chatbench eval` against the simulator, in
 * process over real HTTP. Follow-ups go in their first turn's session and are answered from the
 * history; a broken turn skips the rest with a reason; the summary has the per-turn and the
 * conversation figures; tool assertions pass and fail as the tools used say; a resumed run
 * continues a conversation in its old session, or in a new one when the service lost it; an older
 * release's conversation works too.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { RequestRecordSchema, type RequestRecord } from '../../src/records/record.js';
import { SummarySchema } from '../../src/records/summary.js';
import type { SimConfigInput } from '../../src/sim/index.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const HEADER = 'id,question,expected_documents,must_contain,category,conversation,turn,expected_tools,forced_tool';
const ROWS = [
  'p1,How many days of paid time off does a full-time employee get each year?,hr-pto-policy,25 days,hr,pto,1,internal_search,',
  'p2,How many of those can I carry over?,hr-pto-policy,5 unused,hr,pto,2,internal_search,',
  'p3,Until what date can I still use them?,hr-pto-policy,March 31,hr,pto,3,SearchTool,',
  't1,What class can I fly on a business trip of four hours?,fin-travel-policy,economy class,finance,travel,1,,',
  't2,And what is the hotel cap in London? BREAK,fin-travel-policy,250 USD,finance,travel,2,,',
  't3,How much is the daily allowance for meals there?,fin-travel-policy,75 USD,finance,travel,3,,',
  'w1,Draw a diagram of the deploy process.,,,engineering,,,generate_image,',
  'w2,How do I roll back a bad deploy?,,,engineering,,,web_search,',
];
const FAST: SimConfigInput = {
  chat: {
    time_scale: 0.005,
    faults: { triggers: [{ match: 'BREAK', fault: 'streaming_error', error_code: 'MODEL_ERROR' }] },
  },
};

function dataset(dir: string, rows = ROWS): string {
  const path = join(dir, 'conversations.csv');
  writeFileSync(path, `${HEADER}\n${rows.join('\n')}\n`);
  return path;
}
const records = (out: string): RequestRecord[] =>
  readFileSync(join(out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => RequestRecordSchema.parse(JSON.parse(line)));

async function evalCli(args: string[]) {
  const fake = createFakeIo();
  const code = await main(['eval', ...args], fake.io);
  return { code, stdout: fake.stdout(), stderr: fake.stderr() };
}

describe('eval with conversations and tools', () => {
  it('sends turns in one session from the history, skips after a broken turn, and scores turns, conversations and tools', async () => {
    const sim = await startSim({ config: FAST });
    const dir = mkdtempSync(join(tmpdir(), 'chatbench-conv-'));
    const out = join(dir, 'run');
    const run = await evalCli([
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      dataset(dir),
      '--set',
      'accurate=openai:gpt-4o@0',
      '--mode',
      'both',
      '--concurrency',
      '4',
      '--max-error-rate',
      '1',
      '--out',
      out,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const all = records(out);
    expect(all).toHaveLength(16);
    for (const mode of ['stream', 'full'] as const) {
      const pto = all.filter((r) => r.conversation === 'pto' && r.mode === mode).sort((a, b) => a.turn! - b.turn!);
      expect(pto.map((r) => [r.turn, r.session, r.outcome, r.scores?.pass])).toEqual([
        [1, 'new', 'ok', true],
        [2, 'continued', 'ok', true],
        [3, 'continued', 'ok', true],
      ]);
      expect(new Set(pto.map((r) => r.chat_session_id)).size).toBe(1);
      expect(pto[2]!.answer).toMatch(/March 31/);
      const travel = all
        .filter((r) => r.conversation === 'travel' && r.mode === mode)
        .sort((a, b) => a.turn! - b.turn!);
      expect(travel.map((r) => r.outcome)).toEqual(['ok', 'stream_error', 'skipped']);
      expect(travel[2]!.error_message).toMatch(
        /^not sent: turn 2 of conversation travel ended stream_error( \(MODEL_ERROR\))?, and a conversation ends with its first failed turn$/,
      );
    }
    // Tools: the drawing used image generation as expected; the rollback question was searched, not sent to the web.
    const w1 = all.find((r) => r.question_id === 'w1' && r.mode === 'stream')!;
    expect([w1.tools_used, w1.scores?.tool_assertion, w1.scores?.tool_precision, w1.scores?.pass]).toEqual([
      ['generate_image'],
      1,
      1,
      true,
    ]);
    const w2 = all.find((r) => r.question_id === 'w2' && r.mode === 'full')!;
    expect([w2.tools_used, w2.scores?.tool_assertion, w2.scores?.tool_precision, w2.scores?.pass]).toEqual([
      ['internal_search'],
      0,
      0,
      false,
    ]);
    const summary = SummarySchema.parse(JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')));
    const stream = summary.groups.find((g) => g.mode === 'stream')!;
    expect(Object.keys(stream.by_turn)).toEqual(['1', '2', '3']);
    expect(stream.by_turn['3']).toMatchObject({ requests: 2, outcomes: { ok: 1, skipped: 1 } });
    expect(stream.conversations).toMatchObject({ count: 2, passed: 1, ended_early: 1 });
    expect(stream.scores.tool_assertion).toMatchObject({ mean: 0.8, n: 5 });
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    expect(md).toContain('## By turn (conversations)');
    expect(md).toContain('| conversations passed [95% CI] | 50% (9.5–91%) of 2 | 50% (9.5–91%) of 2 |');
    expect(readFileSync(join(out, 'junit.xml'), 'utf8')).toMatch(
      /<skipped message="skipped: not sent: turn 2 of conversation travel/,
    );
    // A gate on the turns at depth 1 only, and one that names a depth the run does not have.
    const gated = await main(['compare', out, out, '--gate', 'turn:1 pass_rate >= 1'], createFakeIo().io);
    expect(gated).toBe(0);
    const wrong = createFakeIo();
    expect(await main(['compare', out, out, '--gate', 'turn:7 pass_rate >= 1'], wrong.io)).toBe(2);
    expect(wrong.stderr()).toContain('turn:7 names no turn of the run (its conversations have turns 1, 2, 3)');
  });

  it('refuses broken conversations and unknown tool names of the simulator before sending anything (exit 2)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatbench-conv-'));
    const bad = dataset(dir, ['a,First,,,,c,1,,', 'b,Third,,,,c,3,drawing,', 'x,Lone,,,,,2,,web_search']);
    const run = await evalCli(['--sim', '--dataset', bad, '--out', join(dir, 'never')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('conversations.csv:3: turn: conversation "c" has no turn 2 (its turns: 1, 3)');
    expect(run.stderr).toContain('conversations.csv:4: turn: turn 2 has no conversation');
    expect(run.stderr).toContain(
      'conversations.csv:3: expected_tools: unknown tool "drawing" (the tools: internal_search, generate_image, web_search, ticket_status, find_meeting_slots)',
    );
  });

  it('resume: continues a cut conversation in its old session, or in a new one when the service lost it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatbench-conv-'));
    const rows = [ROWS[0]!, ROWS[1]!, ROWS[2]!];
    const path = dataset(dir, rows);
    const args = (sim: { baseUrl: string }, out: string) => [
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      path,
      '--concurrency',
      '2',
      '--out',
      out,
    ];
    const cut = (out: string) => {
      // As if the run was killed after its first turn: the manifest and that turn's record survive.
      const lines = readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n');
      const first = lines.find((l) => (JSON.parse(l) as RequestRecord).turn === 1)!;
      writeFileSync(join(out, 'results.jsonl'), `${first}\n`);
    };
    const same = await startSim({ config: FAST });
    const outA = join(dir, 'a');
    expect((await evalCli(args(same, outA))).code).toBe(0);
    cut(outA);
    expect((await evalCli([...args(same, outA), '--resume', outA])).code).toBe(0);
    const resumed = records(outA).sort((a, b) => a.turn! - b.turn!);
    expect(resumed.map((r) => [r.turn, r.session, r.outcome])).toEqual([
      [1, 'new', 'ok'],
      [2, 'resumed', 'ok'],
      [3, 'continued', 'ok'],
    ]);
    expect(new Set(resumed.map((r) => r.chat_session_id)).size).toBe(1);

    // The service restarted in between: it no longer has the session; the turn opens a new one.
    const outB = join(dir, 'b');
    const before = await startSim({ config: FAST });
    expect((await evalCli(args(before, outB))).code).toBe(0);
    cut(outB);
    const after = await startSim({ config: FAST });
    const manifest = JSON.parse(readFileSync(join(outB, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(outB, 'manifest.json'), JSON.stringify({ ...manifest, base_url: after.baseUrl }));
    expect((await evalCli([...args(after, outB), '--resume', outB])).code).toBe(0);
    const restarted = records(outB).sort((a, b) => a.turn! - b.turn!);
    expect(restarted.map((r) => [r.turn, r.session, r.outcome])).toEqual([
      [1, 'new', 'ok'],
      [2, 'restarted', 'ok'],
      [3, 'continued', 'ok'],
    ]);
    expect(restarted[1]!.attempts.map((a) => [a.outcome, a.error_code])).toEqual([
      ['stream_error', 'VALIDATION_ERROR'],
      ['ok', null],
    ]);
    expect(restarted[1]!.chat_session_id).not.toBe(restarted[0]!.chat_session_id);
  });

  it('an older release (v3.0): follow-ups continue the session, custom tools are named without tool ids', async () => {
    const sim = await startSim({ config: { ...FAST, onyx_release: '3.0' } });
    const dir = mkdtempSync(join(tmpdir(), 'chatbench-conv-'));
    const out = join(dir, 'run');
    const rows = [ROWS[0]!, ROWS[1]!, 'k1,What is the status of ticket SUP-1042?,,,support,,,ticket_status,'];
    const run = await evalCli([
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      dataset(dir, rows),
      '--mode',
      'both',
      '--out',
      out,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const all = records(out);
    for (const r of all.filter((x) => x.conversation === 'pto'))
      expect([r.outcome, r.scores?.pass]).toEqual(['ok', true]);
    // Before v4.0 a full response to a named session leaves chat_session_id null: the record keeps the session it was sent in.
    const fullTurn2 = all.find((r) => r.conversation === 'pto' && r.turn === 2 && r.mode === 'full')!;
    expect(fullTurn2.chat_session_id).toBe(
      all.find((r) => r.conversation === 'pto' && r.turn === 1 && r.mode === 'full')!.chat_session_id,
    );
    for (const r of all.filter((x) => x.question_id === 'k1'))
      expect([r.tools_used, r.scores?.tool_assertion]).toEqual([['ticket_status'], 1]);
  });
});
