/**
 * @module runner/health-probe
 * Probes the service's health once every `intervalMs` from the schedule's zero until stopped (the
 * kit's HealthProbeUser, and what an orchestrator's liveness probe sees under load). Runs in the
 * parent process, once, whatever `--workers` says; its own connections (client/health-probe), off
 * the requests' path: with workers the requests are on other threads, in one thread a probe costs
 * one small GET a second. Never prints; the samples go to generator.json.
 */
import { createHealthProber, type HealthProber } from '../client/health-probe.js';
import { isHealthFailure, type HealthProbeRun, type HealthSample } from '../records/health-probe.js';

export interface HealthProbeOptions {
  /** As given (`/health/ready`, or a whole URL). */
  readonly path: string;
  readonly url: string;
  readonly intervalMs: number;
  /** Longest wait for a probe's whole answer. */
  readonly timeoutMs: number;
  readonly now: () => number;
  /** Sees each probe as it ends (the live view). */
  readonly onSample?: (sample: HealthSample) => void;
  /** Replaces the HTTP prober (tests). */
  readonly prober?: HealthProber;
}

export interface RunningHealthProbe {
  /** The latest probe's result, or null before the first ends. */
  latest(): HealthSample | null;
  /** Probes ended so far, and those that failed. */
  counts(): { probes: number; failures: number };
  /** Stops probing, waits for the probes in flight, and returns every sample in send order. */
  stop(): Promise<HealthProbeRun>;
}

/** The probe URL: a whole URL as is; a path under the base URL (its `/api` prefix kept, as a proxy serves `/api/health`). */
export function healthUrl(baseUrl: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${baseUrl.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** Starts probing now: the first probe at once (offset 0 from `zero`), then every intervalMs. */
export function startHealthProbe(options: HealthProbeOptions, zero: number): RunningHealthProbe {
  const prober = options.prober ?? createHealthProber(options.url, { timeoutMs: options.timeoutMs, now: options.now });
  const samples: HealthSample[] = [];
  const inFlight = new Set<Promise<void>>();
  let latest: HealthSample | null = null;
  let ended = 0;
  let failures = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let n = 0;
  const fire = () => {
    if (stopped) return;
    // Node's timers may fire a fraction of a ms early on performance.now()'s clock: wait out the rest,
    // so that a probe is never sent before its slot (nor counted in the second before).
    const early = zero + n * options.intervalMs - options.now();
    if (early > 0) {
      timer = setTimeout(fire, Math.ceil(early));
      timer.unref();
      return;
    }
    const offset = options.now() - zero;
    const slot = samples.length;
    samples.push({ offset_ms: offset, ms: null, status: null, error: 'not answered before the run ended' });
    const done = prober.probe().then((result) => {
      const sample = { offset_ms: offset, ...result };
      samples[slot] = sample;
      latest = sample;
      ended += 1;
      if (isHealthFailure(sample)) failures += 1;
      options.onSample?.(sample);
    });
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
    // Each probe on its own schedule (zero + k·interval), so a slow probe neither delays nor bunches the next.
    n += 1;
    timer = setTimeout(fire, Math.max(0, zero + n * options.intervalMs - options.now()));
    timer.unref();
  };
  fire();
  return {
    latest: () => latest,
    counts: () => ({ probes: ended, failures }),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all([...inFlight]);
      if (options.prober === undefined) await prober.close();
      return { path: options.path, interval_ms: options.intervalMs, samples };
    },
  };
}
