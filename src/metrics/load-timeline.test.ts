import { expect, it } from 'vitest';
import { buildTimeline } from './load-timeline.js';
import { toLoadRecord, windowBounds } from './load-window.js';
import { makeRecord } from './test-records.js';

let n = 0;
const rec = (
  scheduled: number,
  sent: number,
  total: number,
  outcome: 'ok' | 'rate_limited' | 'timeout' = 'ok',
  ttfp = 10,
) => {
  n += 1;
  return toLoadRecord(
    makeRecord({
      question_id: `q${n}`,
      repeat: n,
      scheduled_offset_ms: scheduled,
      sent_offset_ms: sent,
      total_ms: total,
      response_ms: sent - scheduled + total,
      ttfp_ms: outcome === 'ok' ? ttfp : null,
      ttft_ms: outcome === 'ok' ? ttfp * 10 : null,
      outcome,
    }),
  );
};

it('one row per second: arrivals, sends, completions by outcome, in flight at the end, latency percentiles', () => {
  const records = [
    rec(100, 100, 200, 'ok', 10), // done 300 → s0
    rec(200, 250, 1000, 'ok', 30), // done 1250 → s1, in flight at 1000
    rec(900, 1100, 100, 'rate_limited'), // arrives s0, sent s1, done s1
    rec(1500, 1500, 1600, 'timeout'), // done 3100 → s3; in flight at 2000 and 3000
  ];
  const bounds = windowBounds(3000, 1000, 1000);
  const rows = buildTimeline(records, [2500], 3000, bounds);
  expect(rows.map((r) => r.second)).toEqual([0, 1, 2, 3]);
  expect(rows.map((r) => r.window)).toEqual(['warmup', 'measured', 'cooldown', 'drain']);
  expect(rows.map((r) => r.offered)).toEqual([3, 1, 1, 0]);
  expect(rows.map((r) => r.sent)).toEqual([2, 2, 0, 0]);
  expect(rows.map((r) => r.dropped)).toEqual([0, 0, 1, 0]);
  expect(rows.map((r) => r.ok)).toEqual([1, 1, 0, 0]);
  expect(rows.map((r) => r.rate_limited)).toEqual([0, 1, 0, 0]);
  expect(rows.map((r) => r.errors)).toEqual([0, 0, 0, 1]);
  expect(rows.map((r) => r.in_flight)).toEqual([1, 1, 1, 0]);
  // TTFT per second too (issue 27: the over-time chart leads with it).
  expect(rows[0]).toMatchObject({ ttft_p50_ms: 100, ttfp_p50_ms: 10, total_p50_ms: 200 });
  expect(rows[1]).toMatchObject({ ttft_p50_ms: 300, ttft_p95_ms: 300 });
  expect(rows[1]).toMatchObject({ ttfp_p50_ms: 30, ttfp_p95_ms: 30, total_p95_ms: 1000 });
  expect(rows[2]?.ttfp_p50_ms).toBeNull();
});

it('no records and no run → no rows', () => {
  expect(buildTimeline([], [], 0, windowBounds(0, 0, 0))).toEqual([]);
});
