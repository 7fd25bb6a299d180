/**
 * @module telemetry/remote-write
 * `--metrics-remote-write URL`: the same series as `/metrics` (read through the same registry,
 * prometheus.ts), pushed every few seconds with the Prometheus remote-write protocol, encoded by
 * the `prometheus-remote-write` package (protobuf + snappy). A push that fails is counted and the
 * run goes on: the series are cumulative, so the next push carries everything again.
 */
import { pushTimeseries } from 'prometheus-remote-write';
import type { LiveSeries } from './series.js';
import { registryOf } from './prometheus.js';

/** Default time between two pushes (k6's experimental-prometheus-rw pushes every 5 s). */
export const REMOTE_WRITE_INTERVAL_MS = 5000;
/** Longest wait for one push's answer. */
const PUSH_TIMEOUT_MS = 10_000;

export interface RemoteWriteOptions {
  readonly url: string;
  readonly series: LiveSeries;
  /** Labels on every series pushed (`job`: a scrape sets its own, a push must say). */
  readonly labels: Readonly<Record<string, string>>;
  readonly intervalMs?: number;
  /** Epoch ms of each push's samples. */
  readonly wallClock: () => number;
}

export interface RemoteWriter {
  /** Pushes once more (the run's final state), stops, and says how many pushes failed and the first failure. */
  close(): Promise<{ pushes: number; failures: number; firstFailure: string | null }>;
}

/** One push's series in the remote-write shape: one sample each, at `timestamp`. */
export async function timeseriesOf(series: LiveSeries, labels: Readonly<Record<string, string>>, timestamp: number) {
  const metrics = await registryOf(series).getMetricsAsJSON();
  return metrics.flatMap((m) =>
    m.values.map((v) => {
      const own = Object.fromEntries(Object.entries(v.labels).map(([k, x]) => [k, String(x)]));
      return {
        labels: { ...labels, ...own, __name__: (v as { metricName?: string }).metricName ?? m.name },
        samples: [{ value: v.value, timestamp }],
      };
    }),
  );
}

export function startRemoteWrite(options: RemoteWriteOptions): RemoteWriter {
  let pushes = 0;
  let failures = 0;
  let firstFailure: string | null = null;
  let lastTimestamp = 0;
  let pushing: Promise<void> | null = null;
  const push = async () => {
    // A sample's timestamp must rise from push to push (Prometheus refuses an out-of-order one).
    const timestamp = Math.max(options.wallClock(), lastTimestamp + 1);
    lastTimestamp = timestamp;
    pushes += 1;
    const fail = (why: string) => {
      failures += 1;
      firstFailure ??= why;
    };
    try {
      const result = await pushTimeseries(await timeseriesOf(options.series, options.labels, timestamp), {
        url: options.url,
        headers: {
          'Content-Encoding': 'snappy',
          'X-Prometheus-Remote-Write-Version': '0.1.0',
          'User-Agent': 'chatbench',
        },
        fetch: (url, init) =>
          fetch(url, {
            ...init,
            body: init?.body as NonNullable<Parameters<typeof fetch>[1]>['body'],
            signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
          }),
      });
      if (result.status < 200 || result.status > 299)
        fail(
          `${result.status} ${result.statusText}${result.errorMessage ? `: ${result.errorMessage.trim().slice(0, 200)}` : ''}`,
        );
    } catch (error) {
      fail(error instanceof Error ? error.message : String(error));
    }
  };
  const tick = () => {
    if (pushing !== null) return; // a slow receiver: skip a beat rather than pile pushes up
    pushing = push().finally(() => (pushing = null));
  };
  const timer = setInterval(tick, options.intervalMs ?? REMOTE_WRITE_INTERVAL_MS);
  timer.unref();
  return {
    async close() {
      clearInterval(timer);
      await pushing;
      await push();
      return { pushes, failures, firstFailure };
    },
  };
}
