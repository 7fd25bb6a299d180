/**
 * Issue 11, "every timing is as exact in the first second as in the hundredth": against a service
 * chatbench did not write (a raw node:http server in its own process, test/fixtures/servers), the
 * first wave of an eval is timed within the same error as the later ones. The error of one TTFP is
 * what chatbench measured minus what the server itself took between the request's arrival and its
 * first part (each side on its own monotonic clock: no clock is shared). Its floor is the transit
 * both ways; whatever it adds beyond the later waves' floor must be explained by the two processes'
 * own event-loop delay, both measured (chatbench's from generator.json, the server's by itself):
 * the tolerance is measured, never a fixed number of milliseconds.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { EvalGeneratorSchema } from '../../src/records/generator-health.js';
import { readRunRecords, runCli, scratch, writeCsv } from '../reliability/helpers.js';

const SERVER = fileURLToPath(new URL('../fixtures/servers/timed-stream-server.mjs', import.meta.url));
const FIRST_PART_MS = 15;
const CONCURRENCY = 8;
const WAVES = 3;

interface Trace {
  message: string;
  arrival: number;
  firstWrite: number;
}
type FromServer = { type: 'ready'; port: number } | { type: 'report'; traces: Trace[]; loopDelayMaxMs: number };

function next<T extends FromServer['type']>(child: ChildProcess, type: T): Promise<Extract<FromServer, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server sent no ${type} within 10 s`)), 10_000);
    const onMessage = (message: FromServer) => {
      if (message.type !== type) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(message as Extract<FromServer, { type: T }>);
    };
    child.on('message', onMessage);
  });
}

describe('the first wave against an independent server', () => {
  it('is timed within the error of the later waves, up to the measured event-loop delay of both processes', async () => {
    const server = fork(SERVER, [String(FIRST_PART_MS)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    onTestFinished(() => void server.kill());
    const { port } = await next(server, 'ready');
    const dir = scratch();
    const questions = Array.from({ length: CONCURRENCY * WAVES }, (_, i) => [
      `q${i}`,
      `Question number ${i}?`,
      '',
      '',
      'false',
      'x',
    ]);
    const out = join(dir, 'run');
    const run = await runCli([
      'eval',
      '--base-url',
      `http://127.0.0.1:${port}/api`,
      '--token',
      'T0KEN',
      '--dataset',
      writeCsv(dir, questions),
      '--concurrency',
      String(CONCURRENCY),
      '--out',
      out,
    ]);
    expect(run.code).toBe(0);
    const reply = next(server, 'report');
    server.send({ type: 'report' });
    const { traces, loopDelayMaxMs: serverLoopMs } = await reply;
    const clientLoopMs = EvalGeneratorSchema.parse(JSON.parse(readFileSync(join(out, 'generator.json'), 'utf8')))
      .loop_delay_ms!.max;

    const byMessage = new Map(traces.map((t) => [t.message, t]));
    const sent = readRunRecords(out).sort((x, y) => x.sent_offset_ms - y.sent_offset_ms);
    expect(sent).toHaveLength(CONCURRENCY * WAVES);
    const errors = sent.map((r) => {
      const t = byMessage.get(r.question)!;
      return r.ttfp_ms! - (t.firstWrite - t.arrival);
    });
    // Never early: the server's own interval lies inside the one chatbench measured.
    for (const e of errors) expect(e).toBeGreaterThan(0);
    const firstWave = errors.slice(0, CONCURRENCY);
    const floor = Math.min(...errors.slice(CONCURRENCY));
    const tolerance = clientLoopMs + serverLoopMs;
    for (const [i, e] of firstWave.entries()) {
      expect({ request: i, beyondFloor: e - floor, within: e - floor <= tolerance }).toMatchObject({
        request: i,
        within: true,
      });
    }
  });
});
