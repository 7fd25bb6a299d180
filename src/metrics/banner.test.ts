import { describe, expect, it } from 'vitest';
import { bannerLines, failureBanner, judgeBanner, timingBanner, timingNote } from './banner.js';

describe('failureBanner', () => {
  it("counts the failed requests by class, in the record's order, any class included", () => {
    expect(failureBanner(75, { ok: 63, http_error: 10, timeout: 2 })).toBe(
      '12 of 75 requests failed (16%): 10 http_error, 2 timeout. Latencies and scores describe the 63 that ended ok.',
    );
    // A class this code has never heard of is counted all the same.
    expect(failureBanner(10, { ok: 9, empty_answer: 1 })).toBe(
      '1 of 10 requests failed (10%): 1 empty_answer. Latencies and scores describe the 9 that ended ok.',
    );
    expect(failureBanner(75, { http_error: 75 })).toBe(
      '75 of 75 requests failed (100%): 75 http_error. No request ended ok: there are no latencies and no scores.',
    );
    expect(failureBanner(1000, { ok: 999, network: 1 })).toMatch(/^1 of 1000 requests failed \(<1%\)/);
    expect(failureBanner(16, { ok: 14, stream_error: 1, skipped: 1 })).toBe(
      '1 of 16 requests failed (6%): 1 stream_error. 1 conversation turn was skipped (nothing sent: an earlier turn failed or the run ended). Latencies and scores describe the 14 that ended ok.',
    );
    expect(failureBanner(10, { ok: 8, skipped: 2 })).toBe(
      '2 conversation turns were skipped (nothing sent: an earlier turn failed or the run ended). Latencies and scores describe the 8 that ended ok.',
    );
  });
  it('says nothing when every request ended ok, or there were none', () => {
    expect(failureBanner(5, { ok: 5, http_error: 0 })).toBeNull();
    expect(failureBanner(0, {})).toBeNull();
  });
});

describe('timingBanner', () => {
  it('warns when the event-loop delay exceeded 5 ms, with how late timings may be', () => {
    expect(timingBanner({ p50: 0.1, p99: 2.3, max: 23.14 })).toBe(
      'Timings may be late by up to 23 ms: the generator was busy (its event-loop delay reached p99 2.3 ms, max 23 ms, over 5 ms).',
    );
    expect(timingBanner({ p50: 0.1, p99: 1.2, max: 4.9 })).toBeNull();
    expect(timingBanner(null)).toBeNull();
  });
  it('states the uncertainty in the notes whatever its size', () => {
    expect(timingNote({ p50: 0.1, p99: 1.24, max: 3.4 })).toBe(
      "timing uncertainty: the generator's event-loop delay was p99 1.2 ms, max 3.4 ms",
    );
    expect(timingNote(null)).toBe('timing uncertainty not measured');
  });
  it('puts the failures first', () => {
    expect(bannerLines(4, { ok: 3, timeout: 1 }, { p50: 1, p99: 6, max: 9 }).map((l) => l.slice(0, 12))).toEqual([
      '1 of 4 reque',
      'Timings may ',
    ]);
  });
});

describe('judgeBanner', () => {
  it('speaks past 10% of the asks without a verdict, never at or below it, nor without a judge', () => {
    expect(judgeBanner({ judge_asks: 25, judge_failed_asks: 25 })).toBe(
      'The judge gave no verdict on 25 of 25 asks (100%, judge_error_rate): the judged figures rest on the rest, or on nothing.',
    );
    expect(judgeBanner({ judge_asks: 100, judge_failed_asks: 11 })).toMatch(
      /^The judge gave no verdict on 11 of 100 asks \(11%/,
    );
    expect(judgeBanner({ judge_asks: 100, judge_failed_asks: 10 })).toBeNull();
    expect(judgeBanner({ judge_asks: 0, judge_failed_asks: 0 })).toBeNull();
  });
});
