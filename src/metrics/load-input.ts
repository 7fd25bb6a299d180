/**
 * @module metrics/load-input
 * What the load figures read of a run's load spec (manifest.json `load`) and of generator.json.
 * Their schemas live in app/run-load.ts, which metrics may not import (metrics are pure functions
 * of records); these are the structural subsets used here. app/render-load-reports.ts passes the
 * parsed files straight in, so tsc fails there if the schemas ever drift from these shapes.
 */
import type { Mode } from '../records/record.js';

/** The load spec fields the figures depend on. */
export interface LoadSpecFields {
  readonly operation: string;
  readonly mode: Mode;
  readonly model: 'open' | 'closed';
  readonly rate?: number | null | undefined;
  readonly concurrency?: number | null | undefined;
  readonly arrival: string;
  readonly stages: { duration_ms: number; target: number }[] | null;
  readonly duration_ms: number | null;
  readonly requests: number | null;
  readonly warmup_ms: number;
  readonly cooldown_ms: number;
  readonly set: string;
}

/** generator.json as the figures read it. */
export interface LoadHealth {
  readonly planned_arrivals: number;
  readonly sent: number;
  readonly dropped: readonly { scheduled_offset_ms: number }[];
  readonly late_sends: number;
  readonly schedule_lag_ms: { p50: number; p99: number; max: number } | null;
  readonly peak_in_flight: number;
  readonly cpu_user_ms: number;
  readonly cpu_system_ms: number;
  readonly interrupted: boolean;
  readonly started_at: string | null;
  readonly start_delay_ms: number | null;
}
