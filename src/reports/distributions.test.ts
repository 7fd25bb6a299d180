import { describe, expect, it } from 'vitest';
import { fixtureRecords, makeRecord } from '../../test/fixtures/reports/fixture.js';
import { createSummarizer } from '../metrics/summarize.js';
import { createReportInputBuilder } from './report-input.js';

describe('report.html distributions read from the summary', () => {
  it('give the same lines as a sample of their own, multi-model columns and failed requests included', () => {
    // Several categories per group (the summary's union of its categories) and a rate that is not whole microseconds.
    const records = [
      ...fixtureRecords(),
      ...Array.from({ length: 300 }, (_, i) =>
        makeRecord({
          question_id: `c${i}`,
          set: 'fast',
          category: i % 3 === 0 ? null : `cat${i % 5}`,
          ttfp_ms: ((i * 7919) % 1000) / 7,
          total_ms: 100 + ((i * 104_729) % 5000) / 1000,
        }),
      ),
    ];
    const own = createReportInputBuilder();
    const summarizer = createSummarizer();
    const shared = createReportInputBuilder({ latencyOf: (column, figure) => summarizer.latency(column, figure) });
    for (const record of records) {
      own.add(record);
      summarizer.add(record);
      shared.add(record);
    }
    const summary = summarizer.finish();
    const want = own.finish(summary).distributions;
    const got = shared.finish(summary).distributions;
    expect([...got.keys()]).toEqual([...want.keys()]);
    expect(got).toEqual(want);
    expect(got.get(JSON.stringify(['fast', 'stream', null]))?.ttfp_ms?.n).toBe(303);
  });
});
