/**
 * @module app/load/load-options
 * What a load run is asked to do (`chatbench load`, each step of `chatbench capacity`): the spec,
 * the target and its limits, the checked inputs, the SLOs and gates, and the hooks the CLI watches
 * the run through. Apart from run-load.ts so that the worker half (workers/run-load-workers.ts)
 * names it without importing the orchestrator.
 */
import type { Gate } from '../../figures/index.js';
import type { Slo } from '../../metrics/load-slo.js';
import type { LoadSpec } from '../../plan/load-plan.js';
import type { RequestRecord } from '../../records/record.js';
import type { LoadTick } from '../../runner/load-ticker.js';
import type { Invocation } from '../store/manifest.js';
import type { PreparedLoad } from './prepare-load.js';

export interface LoadOptions {
  readonly spec: LoadSpec;
  readonly baseUrl: string;
  /** Token values, in token_index order; [''] sends none. */
  readonly tokens: readonly string[];
  readonly prepared: PreparedLoad;
  readonly target: 'service' | 'simulator';
  readonly cwd: string;
  readonly outDir: string;
  readonly signal: AbortSignal;
  readonly graceMs: number;
  /** Longest silence between two parts; undefined: 180 s, 300 s for deep research. */
  readonly timeoutMs?: number | undefined;
  /** Longest whole request; undefined: 15 min, 60 min for deep research. */
  readonly maxDurationMs?: number | undefined;
  /** Answer text kept per answer (UTF-8 bytes); undefined: 1 MiB. */
  readonly maxAnswerBytes?: number | undefined;
  /** Bytes one response body may carry; undefined: 64 MiB. */
  readonly maxBodyBytes?: number | undefined;
  /** Bytes of one stream line; undefined: 16 MiB. */
  readonly maxLineBytes?: number | undefined;
  /** --max-error-body-bytes. */
  readonly maxErrorBodyBytes?: number | undefined;
  readonly retries: number;
  readonly retry429: boolean;
  readonly version: string;
  /** `--slo`s: checked on the measured window; they define goodput. */
  readonly slos?: readonly Slo[];
  /** `--gate`s on the load figures (exit 1 when one fails). */
  readonly gates?: readonly Gate[];
  readonly onRecord?: ((record: RequestRecord) => void) | undefined;
  readonly onTick?: (tick: LoadTick) => void;
  /** The options as they took effect and where each came from (the manifest records it). */
  readonly invocation?: Invocation | undefined;
  /** Once the run directory exists, before waiting for --start-at; `startsInMs` < 0 when already late. */
  readonly onStart?: (info: { outDir: string; planned: number | null; startsInMs: number | null }) => void;
  /** The process's CPU time in µs (process.cpuUsage), passed in by the CLI. */
  readonly cpuUsage?: () => { user: number; system: number };
  readonly now?: () => number;
  readonly wallClock?: () => number;
  /** Worker threads (`--workers`, resolved): 1 (default) runs in this thread; more split the plan as shards do (workers/run-load-workers.ts). */
  readonly workers?: number;
  /** `--health-probe PATH --health-interval`: probe the service's health from the schedule's zero to the run's end (in this thread, once). */
  readonly healthProbe?: { readonly path: string; readonly intervalMs: number; readonly timeoutMs: number } | undefined;
}
