/**
 * `npm run test:soak` (CI runs it after `npm test`), issue 7 §1: 5,000 requests with 20% random faults (the simulator's `faults.rates`, fast
 * profiles through time_scale), through the real CLI. Every planned request has exactly one
 * record, and the summary's outcome counts equal what the simulator says it injected, mapped to
 * outcome classes. One mapping is not one-to-one: in full mode (no stream, no `stop`) both
 * malformed_line and end_without_stop arrive as the same cut JSON body, invalid_response, so
 * those two kinds are checked as a sum against truncated + invalid_response, and truncated is
 * checked to come from streams only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { FAULT_KINDS } from '../../src/sim/chat/config.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';
import {
  countBy,
  plannedKeys,
  readRunRecords,
  runCli,
  scratch,
  writeCsv,
  writeJson,
  STACK_LINE,
} from '../reliability/helpers.js';

const QUESTIONS = 50;
const REPEAT = 20; // × 5 requests per question and repeat (two single sets in both modes, one multi-model set streamed)
const FAULT_SHARE = 0.2;

const TOPICS = [
  'How many days of paid time off do employees get?',
  'What is the expense reimbursement deadline?',
  'How do I connect to the VPN?',
  'Who approves travel requests?',
  'How is the on-call rotation organised?',
  'What is the password rotation policy?',
  'How do I request a new laptop?',
  'When are performance reviews held?',
  'How are incidents escalated?',
  'What is the data retention policy?',
];

/** QUESTIONS distinct questions (repeats draw new faults: the simulator counts occurrences of a text). */
function soakRows(): string[][] {
  return Array.from({ length: QUESTIONS }, (_, i) => [
    `q${i}`,
    `${TOPICS[i % TOPICS.length]} (${i})`,
    '',
    '',
    'false',
    `c${i % 4}`,
  ]);
}

it(
  `soak: ${QUESTIONS * REPEAT * 5} requests with ${FAULT_SHARE * 100}% random faults, nothing lost, outcomes = injected faults`,
  { timeout: 180_000 },
  async () => {
    const rate = FAULT_SHARE / FAULT_KINDS.length;
    const sim = await startSim({
      config: {
        chat: {
          time_scale: 0.001, // gpt-4o's 700 ms first token → 0.7 ms
          stall_ms: 100_000_000, // × 0.001 = 100 s: a stall always outlasts the 5 s timeout
          faults: { rates: Object.fromEntries(FAULT_KINDS.map((k) => [k, rate])) },
        },
      },
    });
    const dir = scratch();
    const rows = soakRows();
    const dataset = writeCsv(dir, rows);
    const models = writeJson(dir, 'models.json', {
      sets: [
        { name: 'fast', llm_override: { model_provider: 'openai', model_version: 'gpt-4o-mini' } },
        { name: 'accurate', llm_override: { model_provider: 'openai', model_version: 'gpt-4o' } },
        {
          name: 'pair',
          llm_overrides: [
            { model_provider: 'openai', model_version: 'gpt-4o-mini' },
            { model_provider: 'openai', model_version: 'gpt-4o' },
          ],
        },
      ],
    });
    // A first pass over the questions on a fault-free simulator warms both sides (JIT, corpus
    // preparation): otherwise the first cold batch takes seconds, close to the timeout.
    const warm = await startSim({ config: { chat: { time_scale: 0.001 } } });
    const warmRun = await runCli([
      'eval',
      '--base-url',
      warm.baseUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      dataset,
      '--sets-file',
      models,
      '--mode',
      'both',
      '--concurrency',
      '8',
      '--out',
      join(dir, 'warm'),
    ]);
    expect(warmRun.code).toBe(0);
    await warm.close();

    const out = join(dir, 'run');
    const started = performance.now();
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
      // A fifth of the requests fail on purpose: --max-error-rate 1 lets the run pass on what it is about.
      '--mode',
      'both',
      '--repeat',
      String(REPEAT),
      '--timeout',
      '5s',
      '--concurrency',
      '24',
      '--max-error-rate',
      '1',
      '--out',
      out,
    ]);
    const wallS = (performance.now() - started) / 1000;
    expect(run.stderr).not.toMatch(STACK_LINE);
    expect(run.code).toBe(0);

    const records = readRunRecords(out);
    const planned = await plannedKeys({ datasetPath: dataset, modelsPath: models, mode: 'both', repeat: REPEAT });
    expect(planned).toHaveLength(QUESTIONS * REPEAT * 5);
    const keys = records.map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect([...keys].sort()).toEqual([...planned].sort());

    const injected = sim.stats().faults_injected;
    const total = Object.values(injected).reduce((a, b) => a + b, 0);
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      run: { outcomes: Record<string, number> };
    };
    const outcomes = summary.run.outcomes;
    // The summary (rendered from results.jsonl) agrees with the records themselves.
    expect(outcomes).toEqual({ ...zeroOutcomes(outcomes), ...countBy(records, (r) => r.outcome) });
    expect({
      ok: outcomes['ok'],
      network: outcomes['network'],
      timeout: outcomes['timeout'],
      http_error: outcomes['http_error'],
      stream_error: outcomes['stream_error'],
      cut: (outcomes['truncated'] ?? 0) + (outcomes['invalid_response'] ?? 0),
      empty_answer: outcomes['empty_answer'],
      rate_limited: outcomes['rate_limited'],
      cancelled: outcomes['cancelled'],
    }).toEqual({
      // A failing tool is not fatal: the answer goes on, ok, with the tool error counted.
      ok: planned.length - total + injected.tool_error,
      network: injected.reset_before_headers + injected.reset_mid_stream,
      timeout: injected.stall_mid_stream,
      http_error: injected.http_500 + injected.http_503,
      // At the newest release a model with nothing to say ends in EMPTY_LLM_RESPONSE, a streaming error.
      stream_error:
        injected.unterminated_error + injected.streaming_error + injected.model_refusal + injected.empty_answer,
      cut: injected.malformed_line + injected.end_without_stop,
      empty_answer: 0,
      rate_limited: 0,
      cancelled: 0,
    });
    expect(
      countBy(
        records.filter((r) => r.outcome === 'http_error'),
        (r) => String(r.http_status),
      ),
    ).toEqual({ 500: injected.http_500, 503: injected.http_503 });
    expect(records.filter((r) => r.outcome === 'truncated').every((r) => r.mode === 'stream')).toBe(true);
    // A failed tool shows in a stream (its error packet); a full response carries no trace of it.
    const withToolErrors = records.filter((r) => r.tool_errors > 0);
    expect(withToolErrors.every((r) => r.mode === 'stream' && r.outcome === 'ok')).toBe(true);
    expect(withToolErrors.length).toBeGreaterThan(0);
    expect(withToolErrors.length).toBeLessThanOrEqual(injected.tool_error);
    // A streamed failure keeps its code (a full response has only error_msg's text).
    const streamedCodes = countBy(
      records.filter((r) => r.mode === 'stream' && r.outcome === 'stream_error'),
      (r) => r.error_code ?? 'none',
    );
    expect(
      Object.keys(streamedCodes).every((code) =>
        [
          'UNKNOWN_ERROR',
          'MODEL_ERROR',
          'MODEL_REFUSAL',
          'EMPTY_LLM_RESPONSE',
          'RATE_LIMIT',
          'CONTEXT_TOO_LONG',
        ].includes(code),
      ),
      JSON.stringify(streamedCodes),
    ).toBe(true);
    expect(streamedCodes['MODEL_REFUSAL'] ?? 0).toBeLessThanOrEqual(injected.model_refusal);
    expect(streamedCodes['EMPTY_LLM_RESPONSE'] ?? 0).toBeLessThanOrEqual(injected.empty_answer);
    // About a fifth were faulted (binomial: 1,000 ± 4σ ≈ ±115).
    expect(Math.abs(total - planned.length * FAULT_SHARE)).toBeLessThan(115);
    const okTotals = records
      .filter((r) => r.outcome === 'ok')
      .map((r) => r.total_ms ?? 0)
      .sort((a, b) => a - b);
    const slowest = okTotals[okTotals.length - 1] ?? 0;
    console.info(
      `soak: ${planned.length} requests, slowest ok ${slowest.toFixed(0)} ms, p99 ok ${(okTotals[Math.floor(okTotals.length * 0.99)] ?? 0).toFixed(0)} ms`,
    );
    console.info(
      `soak: ${planned.length} requests, ${total} faults injected ${JSON.stringify(injected)}, wall ${wallS.toFixed(1)} s`,
    );
  },
);

function zeroOutcomes(outcomes: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(outcomes).map((k) => [k, 0]));
}
