/**
 * @module cli/run-telemetry
 * Starts the outputs of `--metrics-listen`, `--metrics-remote-write` and `--otlp-endpoint` for one
 * `load` or `capacity` run and chains the run's `onRecord`/`onTick` through them; without those
 * flags every call passes the run's own callbacks through unchanged and nothing starts.
 */
import type { PreparedLoad } from '../app/load/prepare-load.js';
import { runSecrets } from '../client/redact.js';
import type { RequestRecord } from '../records/record.js';
import type { LoadTick } from '../runner/load-ticker.js';
import { startTelemetry, telemetryWanted, type Telemetry, type TelemetryOptions } from '../telemetry/live-telemetry.js';
import type { Io } from './io.js';
import { VERSION } from './version.js';

export interface RunTelemetry {
  onRecord(next: ((record: RequestRecord) => void) | undefined): ((record: RequestRecord) => void) | undefined;
  onTick(next: ((tick: LoadTick) => void) | undefined): ((tick: LoadTick) => void) | undefined;
  setStep(index: number): void;
  /** Flushes the final state and stops; says on stderr what failed. */
  close(): Promise<void>;
}

export async function startRunTelemetry(
  io: Io,
  flags: Pick<TelemetryOptions, 'listen' | 'remoteWrite' | 'otlp'>,
  run: { tokens: readonly string[]; prepared: PreparedLoad; mode: string; steps: boolean },
): Promise<RunTelemetry> {
  if (!telemetryWanted(flags)) return { onRecord: (next) => next, onTick: (next) => next, setStep: () => {}, close: async () => {} };
  const telemetry: Telemetry = await startTelemetry({
    ...flags, secrets: runSecrets({ tokens: run.tokens, mcpHeaders: run.prepared.defaults.mcp_headers }),
    set: run.prepared.sets[0]?.name ?? '', mode: run.mode, steps: run.steps, version: VERSION, wallClock: Date.now,
  });
  if (telemetry.metricsUrl !== null) io.stderr.write(`chatbench: serving the run's series at ${telemetry.metricsUrl}\n`);
  let closed = false;
  return {
    onRecord: (next) => (record) => {
      telemetry.onRecord(record);
      next?.(record);
    },
    onTick: (next) => (tick) => {
      telemetry.onTick(tick);
      next?.(tick);
    },
    setStep: (index) => telemetry.setStep(index),
    async close() {
      if (closed) return;
      closed = true;
      for (const note of await telemetry.close({ interrupted: io.signal.aborted })) io.stderr.write(`chatbench: ${note}\n`);
    },
  };
}
