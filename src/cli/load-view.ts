/**
 * @module cli/load-view
 * The live view of `chatbench load`: on a terminal a progress bar and a line with the current send
 * rate, requests in flight, p95 time to first part over the last seconds, 429s, errors and dropped
 * sends, rewritten in place once a second; otherwise (CI logs) a plain line every 5 s. With
 * `--health-probe`, a third line: the latest probe's status and latency and the failures so far.
 * Fed by the run's ticks; never on the request path.
 */
import type { Writable } from 'node:stream';
import type { LoadTick } from '../app/load/run-load.js';

export interface LoadViewOptions {
  /** Planned length of the schedule, ms; with `requests` null too, the bar shows elapsed time only. */
  readonly scheduleMs: number | null;
  /** Planned requests (arrivals) of this process, when known. */
  readonly requests: number | null;
  readonly plainEveryMs?: number;
  readonly now?: () => number;
  readonly barWidth?: number;
}

export interface LoadView {
  update(tick: LoadTick): void;
  /** Clears the live lines (a terminal) so the next output starts clean. */
  stop(): void;
}

const seconds = (ms: number) => `${Math.floor(ms / 1000)}s`;

/** The fraction done: by requests when bounded by a count, else by time. Null when neither is known. */
export function progressOf(tick: LoadTick, options: Pick<LoadViewOptions, 'scheduleMs' | 'requests'>): number | null {
  if (options.requests !== null && options.requests > 0)
    return Math.min(1, (tick.sent + tick.dropped) / options.requests);
  if (options.scheduleMs !== null && options.scheduleMs > 0) return Math.min(1, tick.elapsed_ms / options.scheduleMs);
  return null;
}

/**
 * `12.0/s · in flight 8 · p95 TTFT 1630 ms · TTFP 412 ms · ≈640 tok/s · ok 230 · 429s 3 · errors 0 · dropped 0 · late 1`:
 * TTFT first (issue 27); `≈… tok/s` is the output tokens/s estimated from characters (runner/load-ticker), absent until an answer ended.
 */
export function formatLoadLine(tick: LoadTick): string {
  const ms = (value: number | null | undefined) =>
    value === null || value === undefined ? 'n/a' : `${Math.round(value)} ms`;
  return `${tick.current_rate_per_s.toFixed(1)}/s · in flight ${tick.in_flight} · p95 TTFT ${ms(tick.ttft_p95_ms)} · TTFP ${ms(tick.ttfp_p95_ms)}${tick.output_tokens_per_s_est == null ? '' : ` · ≈${Math.round(tick.output_tokens_per_s_est).toLocaleString('en-US')} tok/s`} · ok ${tick.ok} · 429s ${tick.rate_limited} · errors ${tick.errors} · dropped ${tick.dropped} · late ${tick.late}${(tick.abandoned ?? 0) > 0 ? ` · abandoned ${tick.abandoned}` : ''}`;
}

/** `health 503 12 ms ✗ Request threadpool saturated… · 4 failed of 30`; null before the first probe ends. */
export function formatHealthLine(sample: NonNullable<LoadTick['health']>, failures: number, probes: number): string {
  const ok = sample.status !== null && sample.status >= 200 && sample.status <= 299;
  const answer = sample.status === null ? 'no answer' : `${sample.status} ${Math.round(sample.ms ?? 0)} ms`;
  const why = ok || sample.error === null ? '' : ` ✗ ${sample.error.slice(0, 60)}`;
  return `health ${answer}${why} · ${failures} failed of ${probes}`;
}

/** `[#########-----------]  45% 27s/60s sent 540` */
export function formatLoadBar(
  tick: LoadTick,
  options: Pick<LoadViewOptions, 'scheduleMs' | 'requests' | 'barWidth'>,
): string {
  const width = options.barWidth ?? 30;
  const fraction = progressOf(tick, options);
  const time =
    options.scheduleMs === null
      ? seconds(tick.elapsed_ms)
      : `${seconds(tick.elapsed_ms)}/${seconds(options.scheduleMs)}`;
  const sent = options.requests === null ? `sent ${tick.sent}` : `sent ${tick.sent}/${options.requests}`;
  if (fraction === null) return `${time} ${sent}`;
  const filled = Math.round(fraction * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}% ${time} ${sent}`;
}

export function createLoadView(out: Writable & { isTTY?: boolean }, options: LoadViewOptions): LoadView {
  const now = options.now ?? (() => performance.now());
  const every = options.plainEveryMs ?? 5000;
  let lastPlain = -Infinity;
  /** Lines on the screen below the first (1, or 2 with a health line). */
  let below = 0;
  let live = false;
  const healthLine = (tick: LoadTick): string | null =>
    tick.health === undefined || tick.health === null
      ? null
      : formatHealthLine(tick.health, tick.health_failures ?? 0, tick.health_probes ?? 0);
  return {
    update(tick) {
      const health = healthLine(tick);
      if (out.isTTY) {
        // Move up over the previous lines before rewriting them.
        const lines = [formatLoadBar(tick, options), formatLoadLine(tick), ...(health === null ? [] : [health])];
        out.write(`${live ? `${'\x1b[1A'.repeat(below)}\r\x1b[2K` : ''}${lines.join('\n\x1b[2K')}`);
        below = lines.length - 1;
        live = true;
      } else if (now() - lastPlain >= every) {
        out.write(
          `${formatLoadBar(tick, { ...options, barWidth: 20 })} · ${formatLoadLine(tick)}${health === null ? '' : ` · ${health}`}\n`,
        );
        lastPlain = now();
      }
    },
    stop() {
      if (live) out.write(`\r\x1b[2K${'\x1b[1A\r\x1b[2K'.repeat(below)}`);
      live = false;
    },
  };
}
