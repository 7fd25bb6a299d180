/**
 * `load --otlp-endpoint` against a local OTLP/HTTP receiver (node:http) that decodes the protobuf
 * with the protocol's own definitions (test/fixtures/otlp/metrics.proto, via protobufjs): the
 * official exporter's last export holds the run's final state, with our names, units, labels and
 * values, and the `--otlp-header` sent.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createFakeIo } from '../helpers/fake-io.js';

const dir = mkdtempSync(join(tmpdir(), 'chatbench-otlp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface KeyValue {
  key: string;
  value: { stringValue?: string };
}
interface Point {
  attributes: KeyValue[];
  asDouble?: number;
  count?: number;
  sum?: number;
  bucketCounts?: number[];
  explicitBounds?: number[];
}
interface Metric {
  name: string;
  unit: string;
  sum?: { dataPoints: Point[]; isMonotonic: boolean; aggregationTemporality: number };
  gauge?: { dataPoints: Point[] };
  histogram?: { dataPoints: Point[] };
}

const attrs = (p: Point) => Object.fromEntries(p.attributes.map((a) => [a.key, a.value.stringValue]));

describe('OTLP/HTTP export', () => {
  it("the last export decodes to the run's final state: names, units, labels and values", async () => {
    const root = await protobuf.load(join(import.meta.dirname, '..', 'fixtures', 'otlp', 'metrics.proto'));
    const Request = root.lookupType('opentelemetry.proto.ExportMetricsServiceRequest');
    const exports: Array<{ headers: IncomingHttpHeaders; metrics: Metric[] }> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
        const decoded = Request.toObject(Request.decode(body), { longs: Number, enums: Number, defaults: true }) as {
          resourceMetrics: Array<{ scopeMetrics: Array<{ metrics: Metric[] }> }>;
        };
        exports.push({
          headers: req.headers,
          metrics: decoded.resourceMetrics.flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics)),
        });
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => void server.close());
    const { port } = server.address() as { port: number };

    const out = join(dir, 'run');
    // In-process: what is tested is what the receiver gets, not a process edge.
    const fake = createFakeIo();
    const code = await main(
      [
        'load',
        '--sim',
        '--dataset',
        'datasets/sample.csv',
        '--rate',
        '5',
        '--duration',
        '1s',
        '--out',
        out,
        '--otlp-endpoint',
        `http://127.0.0.1:${port}/v1/metrics`,
        '--otlp-header',
        'x-team=bench',
      ],
      fake.io,
    );
    expect(code, fake.stderr()).toBe(0);

    expect(exports.length).toBeGreaterThan(0);
    const last = exports.at(-1)!;
    expect(last.headers['content-type']).toBe('application/x-protobuf');
    expect(last.headers['x-team']).toBe('bench');
    const metric = (name: string) => last.metrics.find((m) => m.name === name)!;
    const measured = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).windows.measured;

    const requests = metric('chatbench.requests');
    expect(requests.unit).toBe('{request}');
    expect(requests.sum!.isMonotonic).toBe(true);
    expect(requests.sum!.aggregationTemporality).toBe(2); // cumulative
    const ok = requests.sum!.dataPoints.find((p) => attrs(p)['outcome'] === 'ok')!;
    expect(attrs(ok)).toMatchObject({ set: 'default', mode: 'stream', outcome: 'ok' });
    expect(ok.asDouble).toBe(measured.outcomes.ok);

    const ttft = metric('chatbench.ttft');
    expect(ttft.unit).toBe('s');
    const [point] = ttft.histogram!.dataPoints;
    expect(point!.count).toBe(measured.latency.ttft_ms.count);
    expect(point!.sum! / point!.count!).toBeCloseTo(measured.latency.ttft_ms.mean / 1000, 6);
    expect(point!.explicitBounds![0]).toBe(0.001);
    expect(point!.bucketCounts!.reduce((a, b) => a + b, 0)).toBe(point!.count);

    expect(metric('chatbench.sent').sum!.dataPoints[0]!.asDouble).toBe(measured.sent);
    expect(metric('chatbench.in_flight').unit).toBe('{request}');
    expect(metric('chatbench.in_flight').gauge!.dataPoints[0]!.asDouble).toBe(0);
  }, 20_000);
});
