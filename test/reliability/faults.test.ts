/**
 * Issue 7 §1: every fault kind of the simulator × stream and full × single and multi-model, through
 * the real CLI over HTTP. The outcome class is exact, the run goes on to the end, and results.jsonl
 * holds exactly one record per planned request.
 *
 * Multi-model × full is no request at all: the service answers 400 to it, so eval never plans it
 * (--mode both runs a multi-model set streamed only) and refuses it outright with --mode full.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, type FaultKind } from '../../src/sim/chat/config.js';
import type { Mode, Outcome } from '../../src/records/record.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';
import { plannedKeys, readRunRecords, runCli, scratch, writeCsv, writeJson, STACK_LINE } from './helpers.js';

/** What each fault becomes on the record, per mode (full: the body-level form of full-plan.ts). */
const EXPECTED: Record<FaultKind, Record<Mode, Outcome>> = {
  reset_before_headers: { stream: 'network', full: 'network' },
  reset_mid_stream: { stream: 'network', full: 'network' },
  stall_mid_stream: { stream: 'timeout', full: 'timeout' },
  malformed_line: { stream: 'invalid_response', full: 'invalid_response' }, // full: a body cut in half
  end_without_stop: { stream: 'truncated', full: 'invalid_response' }, // full has no stop: the same cut body
  unterminated_error: { stream: 'stream_error', full: 'stream_error' }, // full: error_msg
  http_500: { stream: 'http_error', full: 'http_error' },
  http_503: { stream: 'http_error', full: 'http_error' },
  streaming_error: { stream: 'stream_error', full: 'stream_error' },
  tool_error: { stream: 'ok', full: 'ok' }, // the newest release: a tool error packet, and the answer goes on
  empty_answer: { stream: 'stream_error', full: 'stream_error' }, // v4.5+: EMPTY_LLM_RESPONSE
  model_refusal: { stream: 'stream_error', full: 'stream_error' }, // v4.5+: MODEL_REFUSAL
};
const STATUS: Partial<Record<FaultKind, number>> = { http_500: 500, http_503: 503 };

/**
 * The status a record must carry. A full answer's status goes out with its body, so a stalled body
 * leaves none; a reset mid-body may leave none either, as a TCP RST discards bytes the client had
 * not read yet (timing-dependent, so both are accepted there). Every other fault follows a 200.
 */
function expectedStatus(fault: FaultKind | 'ok', mode: Mode, got: number | null): number | null {
  if (fault === 'ok') return 200;
  if (fault === 'reset_before_headers' || (fault === 'stall_mid_stream' && mode === 'full')) return null;
  if (fault === 'reset_mid_stream') return got === null ? null : 200;
  return STATUS[fault] ?? 200;
}

describe('fault matrix through `chatbench eval`', () => {
  it('classifies every fault exactly in stream and full, single and multi-model, one record per planned request', async () => {
    const sim = await startSim({
      config: {
        chat: {
          stall_ms: 1_000_000, // × time_scale 0.02 = 20 s, far past the 1.5 s timeout
          faults: { triggers: FAULT_KINDS.map((fault) => ({ match: `[${fault}]`, fault })) },
        },
      },
    });
    const dir = scratch();
    const rows = [
      ['ok', 'How many days of paid time off do employees get?', '', '', 'false', 'ok'],
      ...FAULT_KINDS.map((fault) => [fault, `What is the expense deadline? [${fault}]`, '', '', 'false', 'fault']),
    ];
    const dataset = writeCsv(dir, rows);
    const models = writeJson(dir, 'models.json', {
      sets: [
        { name: 'single', llm_override: { model_provider: 'openai', model_version: 'gpt-4o-mini' } },
        {
          name: 'multi',
          llm_overrides: [
            { model_provider: 'openai', model_version: 'gpt-4o-mini' },
            { model_provider: 'openai', model_version: 'gpt-4o' },
          ],
        },
      ],
    });
    const out = join(dir, 'run');
    const run = await runCli([
      'eval',
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
      '--timeout',
      '1500ms',
      '--concurrency',
      '10',
      '--max-error-rate',
      '1',
      '--out',
      out,
    ]);
    expect(run.stderr).not.toMatch(STACK_LINE);
    // Most requests fail on purpose here: --max-error-rate 1 lets the run pass on what it is about.
    expect(run.code).toBe(0);

    const records = readRunRecords(out);
    const keys = records.map((r) => r.key);
    const planned = await plannedKeys({ datasetPath: dataset, modelsPath: models, mode: 'both' });
    expect(planned).toHaveLength(rows.length * 3); // single stream + single full + multi stream
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual([...planned].sort());

    const got = records.map((r) => ({
      q: r.question_id,
      set: r.set,
      mode: r.mode,
      outcome: r.outcome,
      status: r.http_status,
    }));
    const want = records.map((r) => {
      const fault = r.question_id as FaultKind | 'ok';
      const outcome = fault === 'ok' ? 'ok' : EXPECTED[fault][r.mode];
      return {
        q: r.question_id,
        set: r.set,
        mode: r.mode,
        outcome,
        status: expectedStatus(fault, r.mode, r.http_status),
      };
    });
    expect(got).toEqual(want);

    // Multi-model: the failing model carries the class; a model that ended before the fault may be ok.
    for (const r of records.filter((x) => x.set === 'multi')) {
      expect(r.models).toHaveLength(2);
      const perModel = r.models!.map((m) => m.outcome);
      if (r.question_id === 'ok') expect(perModel).toEqual(['ok', 'ok']);
      else
        expect({
          q: r.question_id,
          hit: perModel.includes(r.outcome),
          others: perModel.every((o) => o === r.outcome || o === 'ok'),
        }).toEqual({ q: r.question_id, hit: true, others: true });
    }
    // Every fault was injected once per request that carried its trigger: 3 requests each.
    expect(sim.stats().faults_injected).toEqual(Object.fromEntries(FAULT_KINDS.map((k) => [k, 3])));
  });

  it('refuses a multi-model set with --mode full before sending anything (the service would answer 400)', async () => {
    const sim = await startSim();
    const dir = scratch();
    const models = writeJson(dir, 'models.json', {
      sets: [{ name: 'multi', llm_overrides: [{ model_version: 'gpt-4o-mini' }, { model_version: 'gpt-4o' }] }],
    });
    const run = await runCli([
      'eval',
      '--base-url',
      sim.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      writeCsv(dir, [['q', 'Hello?', '', '', 'false', 'x']]),
      '--sets-file',
      models,
      '--mode',
      'full',
      '--out',
      join(dir, 'run'),
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/set "multi" is multi-model and --mode is full/);
    expect(sim.stats().requests).toBe(0);
  });
});
