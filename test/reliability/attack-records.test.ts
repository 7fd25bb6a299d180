/**
 * Issue 12, records: whatever the service sends, the run stays reportable. A citation marker whose
 * number no record can hold (`[[99999999999999999999]]`) is text, not a marker; and every record is
 * checked against the record schema before it is written, a record that fails being kept as
 * `invalid_response` saying which fields failed, so `report`, `compare` and `--baseline` never
 * refuse a run chatbench wrote.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openResultsFile } from '../../src/app/store/results-file.js';
import { makeRecord } from '../../src/metrics/test-records.js';
import { RequestRecordSchema, type RequestRecord } from '../../src/records/record.js';
import { toValidRecord } from '../../src/records/valid-record.js';
import { fullAnswer, startHostileServer, streamedAnswer } from '../helpers/hostile-server.js';
import { readRunRecords, runCli, scratch, writeCsv } from './helpers.js';

const HUGE = '[[99999999999999999999]]';

describe('a run stays reportable whatever the service sends', () => {
  it(`an answer with ${HUGE}: report, compare and --baseline accept the run`, async () => {
    const server = await startHostileServer((req) =>
      req.body?.stream === false
        ? { headers: { 'content-type': 'application/json' }, body: fullAnswer({ answer: `Full ${HUGE} answer.` }) }
        : { body: streamedAnswer({ deltas: ['Streamed ', HUGE, ' answer.'] }) },
    );
    const dir = scratch();
    const dataset = writeCsv(dir, [
      // must_contain so that the pass rate is checked and the --baseline gate below has a figure to test.
      ['q1', 'Hello?', '', 'answer', 'false', 'x'],
      ['q2', 'Again?', '', 'answer', 'false', 'x'],
    ]);
    const out = join(dir, 'run');
    const common = ['--base-url', server.baseUrl, '--token', 'tok-1234', '--dataset', dataset, '--mode', 'both'];
    expect((await runCli(['eval', ...common, '--out', out])).code).toBe(0);
    const records = readRunRecords(out);
    expect(records.map((r) => [r.outcome, r.markers_without_citation])).toEqual(Array(4).fill(['ok', []]));
    expect(records[0]?.answer).toContain(HUGE);
    expect((await runCli(['report', out])).code).toBe(0);
    expect((await runCli(['compare', out, out, '--out', join(dir, 'cmp')])).code).toBe(0);
    expect(
      (
        await runCli([
          'eval',
          ...common,
          '--baseline',
          out,
          '--gate',
          'pass_rate delta >= -1',
          '--out',
          join(dir, 'again'),
        ])
      ).code,
    ).toBe(0);
  });

  it('a record the schema refuses is written as invalid_response naming the fields, identity and timings kept', async () => {
    const bad = {
      ...makeRecord({ key: 'q7|fast|stream|0', question_id: 'q7', set: 'fast' }),
      ttfp_ms: -1e308,
      answer_chars: Number.NaN,
      markers_without_citation: [1e20],
      token_index: 2,
    } as RequestRecord;
    const fixed = toValidRecord(bad);
    expect(RequestRecordSchema.safeParse(fixed).success).toBe(true);
    expect(fixed).toMatchObject({
      key: 'q7|fast|stream|0',
      question_id: 'q7',
      set: 'fast',
      outcome: 'invalid_response',
      ttfp_ms: null,
      answer: null,
      scores: null,
      total_ms: bad.total_ms,
      sent_offset_ms: bad.sent_offset_ms,
      token_index: 2,
      attempts: bad.attempts,
    });
    expect(fixed.error_message).toBe(
      'chatbench could not record what the service sent: ttfp_ms: Too small: expected number to be >=0; answer_chars: Invalid input: expected number, received NaN; markers_without_citation.0: Too big: expected int to be <=9007199254740991',
    );
    const good = makeRecord({});
    expect(toValidRecord(good)).toBe(good);

    const dir = scratch();
    const file = openResultsFile(join(dir, 'results.jsonl'));
    file.write(good);
    file.write(bad);
    await file.close();
    expect(file.repaired).toBe(1);
    expect(readRunRecords(dir).map((r) => r.outcome)).toEqual([good.outcome, 'invalid_response']);
  });
});
