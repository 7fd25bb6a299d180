/**
 * @module metrics/load-input
 * What the load figures read of a run's load spec (manifest.json `load`) and of generator.json.
 * Their schemas live in plan/load-plan.ts (LoadSpecSchema) and runner/generator-health.ts
 * (GeneratorHealthSchema), which metrics may not import (metrics are pure functions of records);
 * these are the structural subsets read here. app/render-load-reports.ts passes the parsed files
 * straight in, so tsc fails there if the schemas ever drift from these shapes.
 */
import type { Mode } from '../records/record.js';

/** The load spec fields the figures depend on. */
export interface LoadSpecFields {
  readonly operation: string;
  readonly mode: Mode;
  readonly model: 'open' | 'closed';
  readonly rate?: number | undefined;
  readonly concurrency?: number | undefined;
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
  /** All null in the closed model (nothing is scheduled). */
  readonly schedule_lag_ms: { p50: number | null; p99: number | null; max: number | null };
  readonly peak_in_flight: number;
  readonly cpu_user_ms: number | null;
  readonly cpu_system_ms: number | null;
  readonly interrupted: boolean;
  readonly started_at: string;
  readonly start_delay_ms: number;
  /** Planned length of the schedule; null when only a request count bounds it. */
  readonly schedule_ms: number | null;
}
