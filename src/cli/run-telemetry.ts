/**
 * @module cli/run-telemetry
 * Starts the outputs of `--metrics-listen`, `--metrics-remote-write`, `--otlp-endpoint` and
 * `--dashboard` for one `load` or `capacity` run and chains the run's `onRecord`/`onTick` through
 * them; without those flags every call passes the run's own callbacks through unchanged and
 * nothing starts. The dashboard outlives the run: `linger()` keeps it up after the summary is
 * printed (until Ctrl-C or --dashboard-linger), showing the verdict given to `finish()`.
 */
import type { PreparedLoad } from '../app/load/prepare-load.js';
import { runSecrets } from '../client/redact.js';
import type { RequestRecord } from '../records/record.js';
import type { LoadTick } from '../runner/load-ticker.js';
import { startTelemetry, telemetryWanted, type Telemetry, type TelemetryOptions } from '../telemetry/live-telemetry.js';
import { createDashboardSnapshots, type DashboardSnapshots } from '../dashboard/snapshot.js';
import { startDashboardServer, type DashboardServer } from '../dashboard/server.js';
import type { CapacityStep } from '../records/load-summary.js';
import { defaultBundleDir, readViewerBundle } from '../viewer/assets.js';
import type { Verdict } from '../verdict/verdict.js';
import type { Io } from './io.js';
import type { DashboardFlags } from './telemetry-flags.js';
import { VERSION } from './version.js';

export interface RunTelemetry {
  onRecord(next: ((record: RequestRecord) => void) | undefined): ((record: RequestRecord) => void) | undefined;
  onTick(next: ((tick: LoadTick) => void) | undefined): ((tick: LoadTick) => void) | undefined;
  setStep(index: number): void;
  /** Capacity: a step was decided. */
  onStep(step: CapacityStep): void;
  /** Flushes the final state and stops; says on stderr what failed. The dashboard stays up. */
  close(): Promise<void>;
  /** The run's verdict, for the dashboard's final state. */
  finish(verdict: Verdict): void;
  /** Keeps the dashboard up until Ctrl-C or --dashboard-linger, then stops it; at once without one. */
  linger(): Promise<void>;
}

/** The dashboard of one run: its snapshots (made on the tick) and its server. */
interface RunDashboard {
  readonly snapshots: DashboardSnapshots;
  readonly server: DashboardServer;
  readonly lingerMs: number | null;
}

export async function startRunTelemetry(
  io: Io,
  flags: Pick<TelemetryOptions, 'listen' | 'remoteWrite' | 'otlp'> & { dashboard?: DashboardFlags | undefined },
  run: {
    tokens: readonly string[];
    prepared: PreparedLoad;
    mode: string;
    steps: boolean;
    conditions: ReadonlyArray<{ kind: 'slo' | 'gate'; text: string }>;
  },
): Promise<RunTelemetry> {
  if (!telemetryWanted(flags) && flags.dashboard === undefined) {
    return {
      onRecord: (next) => next,
      onTick: (next) => next,
      setStep: () => {},
      onStep: () => {},
      close: async () => {},
      finish: () => {},
      linger: async () => {},
    };
  }
  const telemetry: Telemetry = await startTelemetry({
    ...flags,
    secrets: runSecrets({ tokens: run.tokens, mcpHeaders: run.prepared.defaults.mcp_headers }),
    set: run.prepared.sets[0]?.name ?? '',
    mode: run.mode,
    steps: run.steps,
    version: VERSION,
    wallClock: Date.now,
  });
  if (telemetry.metricsUrl !== null)
    io.stderr.write(`chatbench: serving the run's series at ${telemetry.metricsUrl}\n`);
  let dashboard: RunDashboard | null = null;
  try {
    if (flags.dashboard !== undefined) dashboard = await startRunDashboard(flags.dashboard, telemetry, run);
  } catch (error) {
    await telemetry.close({ interrupted: true }); // nothing was sent: stop the pushers at once
    throw error;
  }
  if (dashboard !== null) io.stderr.write(`chatbench: live dashboard at ${dashboard.server.url}\n`);
  let closed = false;
  return {
    onRecord: (next) => (record) => {
      telemetry.onRecord(record);
      next?.(record);
    },
    onTick: (next) => (tick) => {
      telemetry.onTick(tick);
      dashboard?.snapshots.onTick(tick);
      next?.(tick);
    },
    setStep(index) {
      telemetry.setStep(index);
      dashboard?.snapshots.setStep(index);
    },
    onStep: (step) => dashboard?.snapshots.onStep(step),
    async close() {
      if (closed) return;
      closed = true;
      for (const note of await telemetry.close({ interrupted: io.signal.aborted }))
        io.stderr.write(`chatbench: ${note}\n`);
    },
    finish: (verdict) => dashboard?.snapshots.finish(verdict),
    async linger() {
      if (dashboard === null) return;
      if (dashboard.lingerMs !== 0) {
        io.stderr.write(
          `chatbench: the dashboard shows the final state at ${dashboard.server.url} ${dashboard.lingerMs === null ? 'until Ctrl-C' : `for ${Math.round(dashboard.lingerMs / 1000)} s (Ctrl-C to stop now)`}\n`,
        );
        await untilInterruptOr(io, dashboard.lingerMs);
      }
      await dashboard.server.close();
    },
  };
}

async function startRunDashboard(
  flags: DashboardFlags,
  telemetry: Telemetry,
  run: { steps: boolean; conditions: ReadonlyArray<{ kind: 'slo' | 'gate'; text: string }> },
): Promise<RunDashboard> {
  const bundle = await readViewerBundle(defaultBundleDir(), 'dashboard');
  const snapshots = createDashboardSnapshots({
    series: telemetry.series,
    command: run.steps ? 'capacity' : 'load',
    conditions: run.conditions,
    now: () => performance.now(),
  });
  const server = await startDashboardServer({
    bundle,
    snapshot: () => snapshots.json(),
    host: flags.host,
    port: flags.port,
  });
  return { snapshots, server, lingerMs: flags.lingerMs };
}

/** Resolves on the next interrupt (the first, or the second when the run was interrupted) or after `ms` (null: never). */
function untilInterruptOr(io: Io, ms: number | null): Promise<void> {
  return new Promise<void>((resolve) => {
    // A timer holds the process (the server does not): without a limit, one that fires rarely.
    const timer = ms === null ? setInterval(() => {}, 1 << 30) : setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      clearInterval(timer);
      resolve();
    };
    if (io.signal.aborted) io.onSecondInterrupt(done);
    else io.signal.addEventListener('abort', done, { once: true });
  });
}
