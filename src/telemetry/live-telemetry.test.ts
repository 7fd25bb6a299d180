import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startTelemetry } from './live-telemetry.js';
import type { RequestRecord } from '../records/record.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((done) => s.close(done));
  }
});

/** A loopback server answering every request with `status`; counts the requests. */
async function answering(status: number): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits += 1;
      res.writeHead(status, { 'content-type': 'text/plain' }).end('nope');
    });
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`, hits: () => hits };
}

const record = {
  set: 'default',
  mode: 'stream',
  model_asked: ['p:m-sk-abcdefgh12345'],
  turn: null,
  outcome: 'ok',
  ttfp_ms: 10,
  ttft_ms: 20,
  total_ms: 30,
  response_ms: 31,
  queue_ms: 0,
} as unknown as RequestRecord;
const base = {
  secrets: ['sk-abcdefgh12345'],
  set: 'default',
  mode: 'stream',
  steps: false,
  version: 'test',
  wallClock: Date.now,
};

describe('live telemetry', () => {
  it("serves /metrics on loopback with the run's redaction on label values; other paths are 404", async () => {
    const t = await startTelemetry({ ...base, listen: { host: '127.0.0.1', port: 0 } });
    t.onRecord(record);
    const res = await fetch(t.metricsUrl!);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain(
      'chatbench_requests_total{set="default",mode="stream",model="p:m-[redacted]",turn="",outcome="ok"} 1',
    );
    expect(text).not.toContain('abcdefgh12345');
    expect((await fetch(t.metricsUrl!.replace('/metrics', '/'))).status).toBe(404);
    // Scraped once: close waits for one more scrape (here: at most 2 × 0 + 1 s), then stops serving.
    const closing = t.close();
    await fetch(t.metricsUrl!).then((r) => r.text());
    expect(await closing).toEqual([]);
    await expect(fetch(t.metricsUrl!)).rejects.toThrow();
  });

  it('a remote write or an OTLP export the receiver refuses is told at the end, with the final push and export made', async () => {
    const rw = await answering(500);
    const otlp = await answering(400); // not a retryable status: the exporter gives up at once
    const t = await startTelemetry({ ...base, remoteWrite: { url: rw.url }, otlp: { url: otlp.url, headers: {} } });
    t.onRecord(record);
    const notes = await t.close();
    expect(rw.hits()).toBe(1);
    expect(otlp.hits()).toBeGreaterThanOrEqual(1);
    expect(notes[0]).toMatch(/^--metrics-remote-write: 1 of 1 pushes failed \(first: 500 /);
    expect(notes[1]).toMatch(/^--otlp-endpoint: 1 of 1 exports failed/);
  });

  it('a taken port is a usage error naming the flag', async () => {
    const taken = await answering(200);
    const port = Number(new URL(taken.url).port);
    await expect(startTelemetry({ ...base, listen: { host: '127.0.0.1', port } })).rejects.toThrow(
      /--metrics-listen 127\.0\.0\.1:\d+: cannot listen \(EADDRINUSE\)/,
    );
  });
});
