/**
 * @module telemetry/otlp
 * `--otlp-endpoint URL`: the same series as `/metrics`, as OpenTelemetry metrics over OTLP/HTTP
 * (protobuf), with the official SDK's periodic reader and exporter. The series are not recorded
 * through SDK instruments (that would put the SDK's attribute handling on every record): a
 * MetricProducer hands the reader the series as they stand on each export (cumulative sums,
 * gauges and explicit-bucket histograms). The exporter reads the standard OTEL_EXPORTER_OTLP_*
 * variables itself (headers, timeout, compression); `--otlp-header` adds headers.
 */
import { ValueType, type HrTime } from '@opentelemetry/api';
import { ExportResultCode } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  PeriodicExportingMetricReader,
  type CollectionResult,
  type MetricData,
  type MetricProducer,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics';
import type { Family, LiveSeries } from './series.js';

/** Default time between two exports (the SDK's own default is 60 s: too coarse for a run). */
export const OTLP_INTERVAL_MS = 5000;

export interface OtlpOptions {
  /** The metrics URL as given (e.g. http://collector:4318/v1/metrics). */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly series: LiveSeries;
  readonly version: string;
  readonly intervalMs?: number;
  /** Epoch ms: the series' start time and each export's time. */
  readonly wallClock: () => number;
}

export interface OtlpExport {
  /** Exports the final state, then stops; says how many exports failed and the first failure. */
  close(): Promise<{ exports: number; failures: number; firstFailure: string | null }>;
}

const hrTime = (epochMs: number): HrTime => [Math.floor(epochMs / 1000), Math.round((epochMs % 1000) * 1e6)];

/** The series as OpenTelemetry metric data (pure). */
export function metricDataOf(families: readonly Family[], startMs: number, nowMs: number): MetricData[] {
  const startTime = hrTime(startMs);
  const endTime = hrTime(nowMs);
  return families.map((f): MetricData => {
    const descriptor = { name: f.otel.name, description: f.help, unit: f.otel.unit, valueType: ValueType.DOUBLE };
    if (f.kind === 'histogram') {
      return {
        descriptor,
        aggregationTemporality: AggregationTemporality.CUMULATIVE,
        dataPointType: DataPointType.HISTOGRAM,
        dataPoints: f.points.map((p) => ({
          startTime,
          endTime,
          attributes: { ...p.labels },
          value: { buckets: { boundaries: [...f.bounds], counts: [...p.counts] }, sum: p.sum, count: p.count },
        })),
      };
    }
    const dataPoints = f.points.map((p) => ({ startTime, endTime, attributes: { ...p.labels }, value: p.value }));
    return f.kind === 'counter'
      ? {
          descriptor,
          aggregationTemporality: AggregationTemporality.CUMULATIVE,
          dataPointType: DataPointType.SUM,
          isMonotonic: true,
          dataPoints,
        }
      : {
          descriptor,
          aggregationTemporality: AggregationTemporality.CUMULATIVE,
          dataPointType: DataPointType.GAUGE,
          dataPoints,
        };
  });
}

export function startOtlp(options: OtlpOptions): OtlpExport {
  const startMs = options.wallClock();
  const resource = resourceFromAttributes({ 'service.name': 'chatbench', 'service.version': options.version });
  const producer: MetricProducer = {
    collect: async (): Promise<CollectionResult> => ({
      resourceMetrics: {
        resource,
        scopeMetrics: [
          {
            scope: { name: 'chatbench', version: options.version },
            metrics: metricDataOf(options.series.families(), startMs, options.wallClock()),
          },
        ],
      },
      errors: [],
    }),
  };
  const otlp = new OTLPMetricExporter({ url: options.url, headers: { ...options.headers } });
  // The SDK only logs a failed export (to a diag logger nobody set): count them to tell the user at the end.
  const tally = { exports: 0, failures: 0, firstFailure: null as string | null };
  const exporter: PushMetricExporter = {
    export: (metrics, done) =>
      otlp.export(metrics, (result) => {
        tally.exports += 1;
        if (result.code !== ExportResultCode.SUCCESS) {
          tally.failures += 1;
          tally.firstFailure ??= result.error?.message ?? 'failed';
        }
        done(result);
      }),
    forceFlush: () => otlp.forceFlush(),
    shutdown: () => otlp.shutdown(),
    selectAggregationTemporality: (type) => otlp.selectAggregationTemporality(type),
  };
  const reader = new PeriodicExportingMetricReader({
    exporter,
    exportIntervalMillis: options.intervalMs ?? OTLP_INTERVAL_MS,
    metricProducers: [producer],
  });
  // The provider binds the reader (a reader exports nothing unbound); it has no instruments of its own.
  const provider = new MeterProvider({ resource, readers: [reader] });
  return {
    async close() {
      await provider.shutdown(); // the reader's shutdown exports once more: the run's final state
      return tally;
    },
  };
}
