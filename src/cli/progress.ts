/**
 * @module cli/progress
 * The progress line of a run: live on a terminal (rewritten in place), a plain line every few
 * seconds otherwise (CI logs). Subscribes to the runner's ticks; never on the request path.
 */
import type { Writable } from 'node:stream';

export interface ProgressTick {
  done: number;
  total: number;
  outcomes: Readonly<Record<string, number>>;
  inFlight: number;
  ratePerS: number;
  /** Output tokens/s estimated from characters (runner/progress); null or absent before an answer ended. */
  outputTokensPerSEst?: number | null;
}

export interface ProgressView {
  update(tick: ProgressTick): void;
  /** Clears the live line (a terminal) so the next output starts clean. */
  stop(): void;
}

/**
 * Formats one progress line: `120/400 30% · ok 118 · errors 1 · 429s 1 · 12.3/s · ≈640 tok/s · in flight 8 · ETA 23s`.
 * A skipped conversation turn (nothing sent) is not an error, as in error_rate and the banner: it is
 * counted apart (`· skipped 2`) when there is one.
 */
export function formatProgress(tick: ProgressTick): string {
  const ok = tick.outcomes.ok ?? 0;
  const limited = tick.outcomes.rate_limited ?? 0;
  const skipped = tick.outcomes.skipped ?? 0;
  const errors = tick.done - ok - limited - skipped;
  const pct = tick.total > 0 ? Math.floor((tick.done / tick.total) * 100) : 100;
  const remaining = tick.total - tick.done;
  const eta = tick.ratePerS > 0 && remaining > 0 ? ` · ETA ${formatSeconds(remaining / tick.ratePerS)}` : '';
  return `${tick.done}/${tick.total} ${pct}% · ok ${ok} · errors ${errors}${skipped > 0 ? ` · skipped ${skipped}` : ''} · 429s ${limited} · ${tick.ratePerS.toFixed(1)}/s${tokens(tick)} · in flight ${tick.inFlight}${eta}`;
}

/** ` · ≈640 tok/s`: the estimate from characters, marked ≈ (docs/tokens.md); nothing before an answer ended. */
const tokens = (tick: ProgressTick): string =>
  tick.outputTokensPerSEst == null ? '' : ` · ≈${Math.round(tick.outputTokensPerSEst).toLocaleString('en-US')} tok/s`;

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  return `${Math.floor(seconds / 60)}m${String(Math.ceil(seconds % 60)).padStart(2, '0')}s`;
}

export function createProgressView(
  out: Writable & { isTTY?: boolean },
  options: { plainEveryMs?: number; now?: () => number } = {},
): ProgressView {
  const now = options.now ?? (() => performance.now());
  const every = options.plainEveryMs ?? 5000;
  let lastPlain = -Infinity;
  let live = false;
  return {
    update(tick) {
      const line = formatProgress(tick);
      if (out.isTTY) {
        out.write(`\r\x1b[2K${line}`);
        live = true;
      } else if (now() - lastPlain >= every || tick.done === tick.total) {
        out.write(`${line}\n`);
        lastPlain = now();
      }
    },
    stop() {
      if (live) out.write('\r\x1b[2K');
      live = false;
    },
  };
}
