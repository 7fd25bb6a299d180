/**
 * @module cli/telemetry-flags
 * `--metrics-listen [HOST:]PORT`, `--metrics-remote-write URL`, `--otlp-endpoint URL` and
 * `--otlp-header K=V`, `--dashboard [HOST:PORT]` and `--dashboard-linger` of `load` and `capacity` (docs/telemetry.md): checked before anything is
 * sent, into what telemetry/live-telemetry takes.
 */
import { UsageError } from '../errors.js';
import { parseDuration } from './duration.js';
import type { TelemetryOptions } from '../telemetry/live-telemetry.js';

export interface TelemetryArgs {
  'metrics-listen'?: string | undefined;
  'metrics-remote-write'?: string | undefined;
  'otlp-endpoint'?: string | undefined;
  'otlp-header'?: string[] | undefined;
  dashboard?: string | undefined;
  'dashboard-linger'?: string | undefined;
}

/** `--dashboard [HOST:PORT]`: where to serve the live page, and how long to stay after the run (null: until Ctrl-C). */
export interface DashboardFlags {
  readonly host: string;
  readonly port: number;
  readonly lingerMs: number | null;
}

export const TELEMETRY_OPTIONS = {
  'metrics-listen': {
    type: 'string',
    describe:
      "Serve the run's live series at http://[HOST:]PORT/metrics for Prometheus to scrape (host 127.0.0.1 unless given)",
    group: 'Telemetry:',
  },
  'metrics-remote-write': {
    type: 'string',
    describe: 'Push the same series to this Prometheus remote-write URL every 5 s, and the final state at the end',
    group: 'Telemetry:',
  },
  'otlp-endpoint': {
    type: 'string',
    describe:
      'Export the same series as OpenTelemetry metrics (OTLP/HTTP protobuf) to this URL, e.g. http://localhost:4318/v1/metrics; OTEL_EXPORTER_OTLP_* variables apply',
    group: 'Telemetry:',
  },
  'otlp-header': {
    type: 'string',
    array: true,
    describe: 'A header of every OTLP export, K=V (repeatable; added to OTEL_EXPORTER_OTLP_HEADERS)',
    group: 'Telemetry:',
  },
  dashboard: {
    type: 'string',
    describe:
      'Serve a live web dashboard of the run at http://HOST:PORT/ (default 127.0.0.1 and a free port; the URL is printed); after the run it shows the final state until Ctrl-C or --dashboard-linger',
    group: 'Telemetry:',
  },
  'dashboard-linger': {
    type: 'string',
    describe: 'How long the dashboard stays up after the run, e.g. 30s, 0 (default: until Ctrl-C)',
    group: 'Telemetry:',
  },
} as const;

/** `[HOST:]PORT`, `[::1]:PORT`: 127.0.0.1 when no host is given. */
export function parseListen(text: string, flag = 'metrics-listen'): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]:|([^:[\]]+):)?(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535)
    throw new UsageError(
      `--${flag} ${JSON.stringify(text)}: give PORT or HOST:PORT (e.g. 9646, 0.0.0.0:9646, [::1]:9646), the port from 0 to 65535`,
    );
  return { host: m[1] ?? m[2] ?? '127.0.0.1', port };
}

function httpUrl(text: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--${flag} ${JSON.stringify(text)}: not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--${flag} ${text}: give an http:// or https:// URL`);
  return url.href;
}

/** `--dashboard` (no value: 127.0.0.1 and a free port) and `--dashboard-linger`. */
export function dashboardFlagsOf(a: Pick<TelemetryArgs, 'dashboard' | 'dashboard-linger'>): DashboardFlags | undefined {
  if (a.dashboard === undefined) {
    if (a['dashboard-linger'] !== undefined) throw new UsageError('--dashboard-linger needs --dashboard');
    return undefined;
  }
  const where = a.dashboard.trim() === '' ? { host: '127.0.0.1', port: 0 } : parseListen(a.dashboard, 'dashboard');
  return {
    ...where,
    lingerMs: a['dashboard-linger'] === undefined ? null : parseDuration(a['dashboard-linger'], 'dashboard-linger'),
  };
}

/** The checked flags; undefined for each output not asked for. */
export function telemetryFlagsOf(
  a: TelemetryArgs,
): Pick<TelemetryOptions, 'listen' | 'remoteWrite' | 'otlp'> & { dashboard: DashboardFlags | undefined } {
  const headers: Record<string, string> = {};
  for (const h of a['otlp-header'] ?? []) {
    const eq = h.indexOf('=');
    if (eq <= 0) throw new UsageError(`--otlp-header ${JSON.stringify(h)}: give NAME=VALUE`);
    headers[h.slice(0, eq).trim()] = h.slice(eq + 1).trim();
  }
  if (a['otlp-endpoint'] === undefined && Object.keys(headers).length > 0)
    throw new UsageError('--otlp-header needs --otlp-endpoint');
  return {
    listen: a['metrics-listen'] === undefined ? undefined : parseListen(a['metrics-listen']),
    remoteWrite:
      a['metrics-remote-write'] === undefined
        ? undefined
        : { url: httpUrl(a['metrics-remote-write'], 'metrics-remote-write') },
    otlp: a['otlp-endpoint'] === undefined ? undefined : { url: httpUrl(a['otlp-endpoint'], 'otlp-endpoint'), headers },
    dashboard: dashboardFlagsOf(a),
  };
}
