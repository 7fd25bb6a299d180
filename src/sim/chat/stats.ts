/**
 * @module sim/chat/stats
 * The engine's counters and its send-lag histogram (HDR, microsecond resolution, so the benchmark
 * can read a p99 of a few milliseconds honestly).
 */
import { build, type Histogram } from 'hdr-histogram-js';
import { FAULT_KINDS, type FaultKind } from './config.js';

/** What the engine reports to the server's stats. */
export interface ChatStats {
  /** Streamed responses in progress. */
  streams_open: number;
  /** Requests the engine has handled (started). */
  requests: number;
  faults_injected: Record<FaultKind, number>;
  /** Streaming errors sent (model failures, injected ones, the 4+ models rule). */
  streaming_errors: number;
  /** Scheduled vs actual send time of every write, in milliseconds. */
  send_lag_ms: LagFigures;
  /** The same since the window last restarted (restartLagWindow): a steady state apart from a ramp. */
  send_lag_window_ms: LagFigures;
}

export interface LagFigures {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export interface StatsRecorder {
  streamOpened(): void;
  streamClosed(): void;
  request(): void;
  fault(kind: FaultKind): void;
  streamingError(): void;
  lag(ms: number): void;
  restartLagWindow(): void;
  snapshot(): ChatStats;
}

const MAX_LAG_US = 3_600_000_000; // an hour: anything later is clamped, not lost

export function createStatsRecorder(): StatsRecorder {
  const histogram = (): Histogram =>
    build({
      lowestDiscernibleValue: 1,
      highestTrackableValue: MAX_LAG_US,
      numberOfSignificantValueDigits: 2,
      autoResize: false,
    });
  const lag = histogram();
  const window = histogram();
  const faults = Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  let open = 0;
  let requests = 0;
  let streamingErrors = 0;
  const ms = (us: number) => Math.round(us) / 1000;
  const figures = (h: Histogram): LagFigures => ({
    count: h.totalCount,
    p50: ms(h.getValueAtPercentile(50)),
    p99: ms(h.getValueAtPercentile(99)),
    max: ms(h.maxValue),
  });
  return {
    streamOpened: () => void open++,
    streamClosed: () => void open--,
    request: () => void requests++,
    fault: (kind) => void faults[kind]++,
    streamingError: () => void streamingErrors++,
    lag: (value) => {
      const us = Math.min(MAX_LAG_US, Math.round(value * 1000));
      lag.recordValue(us);
      window.recordValue(us);
    },
    restartLagWindow: () => window.reset(),
    snapshot: () => ({
      streams_open: open,
      requests,
      faults_injected: { ...faults },
      streaming_errors: streamingErrors,
      send_lag_ms: figures(lag),
      send_lag_window_ms: figures(window),
    }),
  };
}
