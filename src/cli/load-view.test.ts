import { Writable } from 'node:stream';
import { expect, it } from 'vitest';
import type { LoadTick } from '../app/load/run-load.js';
import { createLoadView, formatHealthLine, formatLoadBar, formatLoadLine } from './load-view.js';

const tick = (fields: Partial<LoadTick> = {}): LoadTick => ({
  elapsed_ms: 27_000,
  offered: 540,
  sent: 540,
  done: 532,
  in_flight: 8,
  queued: 0,
  ok: 528,
  rate_limited: 3,
  errors: 1,
  dropped: 0,
  late: 2,
  current_rate_per_s: 20,
  ttft_p95_ms: 1630.2,
  ttfp_p95_ms: 412.4,
  ...fields,
});

it('formats the live line and the bar', () => {
  // TTFT leads (issue 27), TTFP second.
  expect(formatLoadLine(tick())).toBe(
    '20.0/s · in flight 8 · p95 TTFT 1630 ms · TTFP 412 ms · ok 528 · 429s 3 · errors 1 · dropped 0 · late 2',
  );
  expect(formatLoadLine(tick({ ttfp_p95_ms: null, ttft_p95_ms: null }))).toContain('p95 TTFT n/a · TTFP n/a');
  // The output tokens/s estimate (from characters) after TTFP, marked ≈; absent until an answer ended.
  expect(formatLoadLine(tick({ output_tokens_per_s_est: 1234.4 }))).toContain('TTFP 412 ms · ≈1,234 tok/s · ok 528');
  expect(formatLoadLine(tick({ output_tokens_per_s_est: null }))).not.toContain('tok/s');
  expect(formatLoadBar(tick(), { scheduleMs: 60_000, requests: null, barWidth: 10 })).toBe(
    '[#####-----]  45% 27s/60s sent 540',
  );
  expect(formatLoadBar(tick({ sent: 50 }), { scheduleMs: null, requests: 200, barWidth: 4 })).toBe(
    '[#---]  25% 27s sent 50/200',
  );
});

function sink(isTTY: boolean) {
  const chunks: string[] = [];
  const out = Object.assign(new Writable({ write: (c, _e, cb) => void (chunks.push(String(c)), cb()) }), { isTTY });
  return { out, text: () => chunks.join('') };
}

it('rewrites two lines in place on a terminal and clears them at the end', () => {
  const { out, text } = sink(true);
  const view = createLoadView(out, { scheduleMs: 60_000, requests: null });
  view.update(tick());
  view.update(tick({ sent: 560 }));
  view.stop();
  expect(text()).toContain('\x1b[1A');
  expect(text().endsWith('\r\x1b[2K\x1b[1A\r\x1b[2K')).toBe(true);
});

it('prints a plain line at most every 5 s when not a terminal', () => {
  const { out, text } = sink(false);
  let t = 0;
  const view = createLoadView(out, { scheduleMs: 60_000, requests: null, now: () => t });
  for (t = 0; t <= 12_000; t += 1000) view.update(tick({ elapsed_ms: t }));
  view.stop();
  expect(text().split('\n').filter(Boolean)).toHaveLength(3);
  expect(text()).not.toContain('\x1b');
});

it('adds a health line when the run probes, a count of users who left when some did', () => {
  const health = {
    offset_ms: 12_000,
    ms: 1.4,
    status: 503,
    error: 'SERVICE_UNAVAILABLE Request threadpool saturated for 12.3s (5 requests queued)',
  };
  expect(formatHealthLine(health, 3, 12)).toBe(
    'health 503 1 ms ✗ SERVICE_UNAVAILABLE Request threadpool saturated for 12.3s ( · 3 failed of 12',
  );
  expect(formatHealthLine({ offset_ms: 0, ms: null, status: null, error: 'ECONNREFUSED' }, 1, 1)).toBe(
    'health no answer ✗ ECONNREFUSED · 1 failed of 1',
  );
  expect(formatLoadLine(tick({ abandoned: 4 }))).toMatch(/ · abandoned 4$/);
  const { out, text } = sink(true);
  const view = createLoadView(out, { scheduleMs: 60_000, requests: null });
  view.update(tick({ health, health_probes: 12, health_failures: 3 }));
  view.update(tick({ health, health_probes: 13, health_failures: 4 }));
  view.stop();
  // Three lines: up two before rewriting them, and two cleared at the end.
  expect(text()).toContain('\x1b[1A\x1b[1A\r\x1b[2K');
  expect(text()).toContain('4 failed of 13');
  expect(text().endsWith('\r\x1b[2K\x1b[1A\r\x1b[2K\x1b[1A\r\x1b[2K')).toBe(true);
});
