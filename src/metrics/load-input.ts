/**
 * @module metrics/load-input
 * What the load figures read of a run's load spec (manifest.json `load`) and of generator.json:
 * subsets of the shared schemas in src/records, so the figures depend on nothing else.
 */
import type { GeneratorHealth } from '../records/generator-health.js';
import type { LoadSpecShape } from '../records/load-spec.js';

/** The load spec fields the figures depend on. */
export type LoadSpecFields = Pick<
  LoadSpecShape,
  | 'operation'
  | 'mode'
  | 'model'
  | 'rate'
  | 'concurrency'
  | 'arrival'
  | 'stages'
  | 'duration_ms'
  | 'requests'
  | 'warmup_ms'
  | 'cooldown_ms'
  | 'set'
>;

/** generator.json as the figures read it. */
export type LoadHealth = Pick<
  GeneratorHealth,
  | 'planned_arrivals'
  | 'sent'
  | 'dropped'
  | 'late_sends'
  | 'schedule_lag_ms'
  | 'peak_in_flight'
  | 'cpu_user_ms'
  | 'cpu_system_ms'
  | 'interrupted'
  | 'started_at'
  | 'start_delay_ms'
  | 'schedule_ms'
  | 'loop_delay_ms'
  | 'health_probe'
>;
