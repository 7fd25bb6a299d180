/**
 * `chatbench eval` against deployments of different Onyx releases (issue 10), in-process through
 * main() over real HTTP to the simulator speaking each: the line it prints of what it learned of
 * the target, the manifest and the reports naming it, the warning and the records of a multi-model
 * set against a release that ignores llm_overrides, deep research per set and per row with its
 * longer default silence limit, and the new flags refused when wrong.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { RequestRecordSchema, type RequestRecord } from '../../src/records/record.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const scratch = () => mkdtempSync(join(tmpdir(), 'chatbench-releases-'));
const write = (dir: string, name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
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
const PTO = 'How many days of paid time off do employees get?';

describe('eval against each release', () => {
  it('prints what it learned of the target, and the manifest and the reports name it', async () => {
    const sim = await startSim({ config: { onyx_release: '4.5.2', chat: { time_scale: 0.005 } } });
    const dir = scratch();
    const out = join(dir, 'run');
    const dataset = write(dir, 'q.csv', `id,question,expected_documents\nq1,${PTO},hr-pto-policy\n`);
    const { code, stderr } = await evalCli([
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      dataset,
      '--out',
      out,
    ]);
    expect(code).toBe(0);
    expect(stderr).toContain(
      'chatbench eval: target Onyx v4.5.2 (read as release 4.5), streams as newline-delimited JSON',
    );
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.service).toEqual({ backend_version: 'v4.5.2', release: '4.5', framing: 'ndjson' });
    expect(manifest.options).toMatchObject({ timeout_ms: null, max_duration_ms: null, max_answer_bytes: 1048576 });
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain(
      'target Onyx v4.5.2 (read as release 4.5), streams as newline-delimited JSON',
    );
    expect(records(out)[0]).toMatchObject({ outcome: 'ok', answer_truncated: false, tool_errors: 0 });
  });

  it('a multi-model set against v3.1: warned before the run, recorded as answered by one model, not scored', async () => {
    const sim = await startSim({ config: { onyx_release: '3.1', chat: { time_scale: 0.005 } } });
    const dir = scratch();
    const out = join(dir, 'run');
    const dataset = write(dir, 'q.csv', `id,question,expected_documents\nq1,${PTO},hr-pto-policy\n`);
    const models = write(
      dir,
      'm.json',
      JSON.stringify({
        sets: [{ name: 'duo', llm_overrides: [{ model_version: 'gpt-4o-mini' }, { model_version: 'gpt-4o' }] }],
      }),
    );
    const { code, stderr } = await evalCli([
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      dataset,
      '--sets-file',
      models,
      '--out',
      out,
    ]);
    // Its only request could not be used: the run could not be carried out (exit 3), reports written.
    expect(code).toBe(3);
    expect(stderr).toContain('every request (1 of 1) failed the same way, with invalid_response');
    expect(stderr).toContain(
      'warning: v3.1.0 predates multi-model answers (v3.2): it ignores llm_overrides and answers set duo with one model',
    );
    const [record] = records(out);
    expect(record).toMatchObject({ outcome: 'invalid_response', answered_models: 1 });
    expect(record?.models).toHaveLength(1);
    expect(record?.models?.[0]).toMatchObject({ model_name: null, scores: { pass: false, citation_recall: null } });
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.groups.find((g: { model_index: number | null }) => g.model_index === 1)).toBeUndefined();
  });

  it('deep research per set and per row: the body says so, the answer is ok, the milestones are figures', async () => {
    const sim = await startSim({ config: { chat: { time_scale: 0.002 } } });
    const dir = scratch();
    const out = join(dir, 'run');
    const dataset = write(
      dir,
      'q.csv',
      `id,question,expected_documents,deep_research\nq1,${PTO},hr-pto-policy,\nq2,${PTO},hr-pto-policy,false\n`,
    );
    const models = write(
      dir,
      'm.json',
      JSON.stringify({ sets: [{ name: 'research', llm_override: { model_version: 'gpt-4o' }, deep_research: true }] }),
    );
    const { code, stderr } = await evalCli([
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      dataset,
      '--sets-file',
      models,
      '--mode',
      'both',
      '--out',
      out,
    ]);
    expect(code, stderr).toBe(0);
    const byKey = new Map(records(out).map((r) => [`${r.question_id}/${r.mode}`, r]));
    expect(byKey.get('q1/stream')).toMatchObject({ outcome: 'ok', scores: { invalid_citations: 0 } });
    expect(byKey.get('q1/stream')?.first_packet_ms).toHaveProperty('research_agent_start');
    expect(byKey.get('q1/full')?.outcome).toBe('ok');
    expect(byKey.get('q2/stream')?.first_packet_ms).not.toHaveProperty('research_agent_start'); // the row said false
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summary.groups[0].latency.message_start_ms.count).toBe(2);
    expect(summary.groups[0].latency.first_search_documents_ms.count).toBe(2); // deep research's first search is its first agent's
  });

  it('refuses a deep-research row in a multi-model set, and a bad time limit, before sending anything', async () => {
    const sim = await startSim();
    const dir = scratch();
    const dataset = write(dir, 'q.csv', `id,question,deep_research\nq1,${PTO},true\n`);
    const models = write(
      dir,
      'm.json',
      JSON.stringify({
        sets: [{ name: 'duo', llm_overrides: [{ model_version: 'gpt-4o-mini' }, { model_version: 'gpt-4o' }] }],
      }),
    );
    const multi = await evalCli([
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      dataset,
      '--sets-file',
      models,
      '--out',
      join(dir, 'a'),
    ]);
    expect(multi.code).toBe(2);
    expect(multi.stderr).toContain(`${dataset}:2: deep_research: true, but set "duo" is multi-model`);
    for (const [flag, value, message] of [
      ['--timeout', '0s', 'is no time at all'],
      ['--max-duration', 'soon', 'is not a duration'],
      ['--max-answer-bytes', 'lots', 'is not a size'],
    ] as const) {
      const r = await evalCli([
        '--base-url',
        sim.baseUrl,
        '--token',
        TOKENS.demo,
        '--dataset',
        dataset,
        flag,
        value,
        '--out',
        join(dir, flag),
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
    }
    expect(sim.stats().requests).toBe(0);
  });
});
