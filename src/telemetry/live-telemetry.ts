/**
 * @module telemetry/live-telemetry
 * What `--metrics-listen`, `--metrics-remote-write` and `--otlp-endpoint` start for a load run or a
 * capacity search: one LiveSeries fed by the run's records and ticks (the observer the app's
 * `onRecord`/`onTick` call, on the main thread: with `--workers N` it sees every worker's records
 * and the summed counters), and the outputs that read it. Also watches the main thread's event
 * loop at a 10 ms tick (cheap: perf_hooks' histogram) for the loop-delay gauges; generator.json
 * keeps the run's exact figure at 2 ms.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { redactText } from '../client/redact.js';
import type { RequestRecord } from '../records/record.js';
import type { LoadTick } from '../runner/load-ticker.js';
// Types only: each output's module (prom-client, OpenTelemetry's SDK and exporter, the remote
// write's protobuf) is imported when its flag asks for it. Imported with the rest, they cost every
// `load` and `capacity` ~0.2 s of CPU at start (the load command's import 940 → 750 ms), `--help`
// included, whether a flag was given or not.
import type { MetricsServer } from './metrics-server.js';
import type { OtlpExport } from './otlp.js';
import type { RemoteWriter } from './remote-write.js';
import { createLiveSeries, type LiveSeries } from './series.js';

const LOOP_RESOLUTION_MS = 10;

export interface TelemetryOptions {
  readonly listen?: { readonly host: string; readonly port: number } | undefined;
  readonly remoteWrite?: { readonly url: string; readonly intervalMs?: number } | undefined;
  readonly otlp?:
    | { readonly url: string; readonly headers: Readonly<Record<string, string>>; readonly intervalMs?: number }
    | undefined;
  /** The run's secrets (client/redact runSecrets): no label value carries one. */
  readonly secrets: readonly string[];
  readonly set: string;
  readonly mode: string;
  /** A capacity search: series labelled by step. */
  readonly steps: boolean;
  readonly version: string;
  readonly wallClock: () => number;
}

export interface Telemetry {
  readonly series: LiveSeries;
  /** The `/metrics` URL when listening. */
  readonly metricsUrl: string | null;
  onRecord(record: RequestRecord): void;
  onTick(tick: LoadTick): void;
  setStep(index: number): void;
  /**
   * Flushes the final state (a last push and export), stops serving (after a scraper's last scrape
   * unless `interrupted`); lines to tell the user (failed pushes and exports).
   */
  close(options?: { interrupted: boolean }): Promise<string[]>;
}

/** True when any output was asked for. */
export const telemetryWanted = (o: Pick<TelemetryOptions, 'listen' | 'remoteWrite' | 'otlp'>): boolean =>
  o.listen !== undefined || o.remoteWrite !== undefined || o.otlp !== undefined;

export async function startTelemetry(options: TelemetryOptions): Promise<Telemetry> {
  const series = createLiveSeries({
    redact: (v) => redactText(v, options.secrets),
    steps: options.steps,
    set: options.set,
    mode: options.mode,
  });
  const server: MetricsServer | null = options.listen
    ? await (await import('./metrics-server.js')).listenMetrics(series, options.listen.host, options.listen.port)
    : null;
  const writer: RemoteWriter | null = options.remoteWrite
    ? (await import('./remote-write.js')).startRemoteWrite({
        url: options.remoteWrite.url,
        series,
        labels: { job: 'chatbench' },
        wallClock: options.wallClock,
        ...(options.remoteWrite.intervalMs ? { intervalMs: options.remoteWrite.intervalMs } : {}),
      })
    : null;
  const otlp: OtlpExport | null = options.otlp
    ? (await import('./otlp.js')).startOtlp({
        url: options.otlp.url,
        headers: options.otlp.headers,
        series,
        version: options.version,
        wallClock: options.wallClock,
        ...(options.otlp.intervalMs ? { intervalMs: options.otlp.intervalMs } : {}),
      })
    : null;
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();
  const beyondTick = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);
  return {
    series,
    metricsUrl: server?.url ?? null,
    onRecord: (record) => series.observeRecord(record),
    onTick(tick) {
      series.observeTick(tick);
      if (loop.count > 0) series.observeLoopDelay(beyondTick(loop.percentile(99)), beyondTick(loop.max));
      loop.reset();
    },
    setStep: (index) => series.setStep(index),
    async close({ interrupted } = { interrupted: false }) {
      loop.disable();
      const notes: string[] = [];
      if (writer) {
        const pushed = await writer.close();
        if (pushed.failures > 0)
          notes.push(
            `--metrics-remote-write: ${pushed.failures} of ${pushed.pushes} pushes failed (first: ${pushed.firstFailure})`,
          );
      }
      if (otlp) {
        const exported = await otlp.close();
        if (exported.failures > 0)
          notes.push(
            `--otlp-endpoint: ${exported.failures} of ${exported.exports} exports failed (first: ${exported.firstFailure})`,
          );
      }
      await server?.close({ waitForScrape: !interrupted });
      return notes;
    },
  };
}
