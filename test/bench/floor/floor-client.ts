/**
 * @module bench/floor/floor-client
 * The floor of issue 17: the least a client can do and still record what chatbench records of a
 * chat request. An undici Pool, the plan's bodies sent on an open-loop schedule (request k at
 * k / rate s, never waiting for an answer), and per request: TTFP (first part), TTFT (first
 * non-empty message_delta), whether `stop` came, and the cited document ids — for a stream by
 * splitting the body into lines and JSON.parse-ing each; for a full answer by JSON.parse of the body.
 * Nothing is validated, scored or written: that is what chatbench adds, and what its CPU per
 * request is compared with. With `recordsPath` (the bench's `floor+record`), each request's record
 * is also written, one JSON line at its end: the least a tool must keep to score a request later
 * (its timings, status, answer and cited ids), to show what writing a record alone costs.
 */
import { createWriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { Pool } from 'undici';
import { createLineSplitter } from './lines.js';

export interface FloorOptions {
  /** `http://127.0.0.1:port/api` (the send-chat-message path is added). */
  readonly baseUrl: string;
  readonly token: string;
  /** Serialised request bodies, sent in turn (request k sends bodies[k % n]). */
  readonly bodies: readonly string[];
  readonly rate: number;
  readonly durationMs: number;
  readonly connections: number;
  /** Writes each request's record as one JSON line to this file (its answer kept too). */
  readonly recordsPath?: string;
}

/** What the floor kept of one request. */
interface FloorRecord {
  sent: number;
  status: number;
  ttfp: number | null;
  ttft: number | null;
  total: number | null;
  stopped: boolean;
  cited: string[];
  error: string | null;
  /** The answer's text, kept only when records are written. */
  answer: string | null;
}

export interface FloorResult {
  readonly sent: number;
  readonly ok: number;
  /** First to last send, ms. */
  readonly send_span_ms: number;
  /** Schedule lag (send − planned) p99, ms. */
  readonly lag_p99_ms: number;
  readonly duration_ms: number;
}

interface Packet {
  obj?: { type?: string; content?: string; document_id?: string };
}

/** Runs the schedule; resolves once every answer has ended. */
export async function runFloor(o: FloorOptions): Promise<FloorResult> {
  const url = new URL(o.baseUrl);
  const path = `${url.pathname.replace(/\/+$/, '')}/chat/send-chat-message`;
  const pool = new Pool(url.origin, { connections: o.connections, pipelining: 1 });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${o.token}` };
  const total = Math.max(1, Math.round((o.rate * o.durationMs) / 1000));
  const records: FloorRecord[] = [];
  const lags: number[] = [];
  const pending: Promise<void>[] = [];
  const out = o.recordsPath === undefined ? null : createWriteStream(o.recordsPath);
  const keepAnswer = out !== null;
  const t0 = performance.now();

  const send = async (k: number): Promise<void> => {
    const body = o.bodies[k % o.bodies.length]!;
    const r: FloorRecord = {
      sent: performance.now(),
      status: 0,
      ttfp: null,
      ttft: null,
      total: null,
      stopped: false,
      cited: [],
      error: null,
      answer: null,
    };
    records.push(r);
    try {
      const response = await pool.request({ path, method: 'POST', headers, body });
      r.status = response.statusCode;
      const onPacket = (p: Packet, t: number) => {
        r.ttfp ??= t - r.sent;
        const obj = p.obj;
        if (obj?.type === 'message_delta' && obj.content) {
          r.ttft ??= t - r.sent;
          if (keepAnswer) r.answer = (r.answer ?? '') + obj.content;
        } else if (obj?.type === 'citation_info' && obj.document_id !== undefined) r.cited.push(obj.document_id);
        else if (obj?.type === 'stop') r.stopped = true;
      };
      if ((response.headers['content-type'] ?? '').includes('application/json')) {
        const full = JSON.parse(await response.body.text()) as {
          answer?: string;
          citation_info?: { document_id: string }[];
        };
        const t = performance.now();
        r.ttfp = t - r.sent;
        r.cited = (full.citation_info ?? []).map((c) => c.document_id);
        r.stopped = typeof full.answer === 'string';
        if (keepAnswer) r.answer = full.answer ?? null;
      } else {
        let t = 0;
        const lines = createLineSplitter((line) => onPacket(JSON.parse(line) as Packet, t));
        const utf8 = new TextDecoder();
        for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
          t = performance.now();
          lines.push(utf8.decode(chunk, { stream: true }));
        }
        lines.end();
      }
      r.total = performance.now() - r.sent;
    } catch (error) {
      r.error = error instanceof Error ? error.message : String(error);
    }
    out?.write(JSON.stringify(r) + '\n');
  };

  await new Promise<void>((done) => {
    let k = 0;
    const tick = () => {
      const elapsed = performance.now() - t0;
      for (const due = Math.min(total, Math.floor((elapsed * o.rate) / 1000) + 1); k < due; k++) {
        lags.push(elapsed - (k * 1000) / o.rate);
        pending.push(send(k));
      }
      if (k >= total) return done();
      setTimeout(tick, Math.max(0, (k * 1000) / o.rate - (performance.now() - t0)));
    };
    tick();
  });
  const lastSend = performance.now() - t0;
  await Promise.all(pending);
  await pool.close();
  if (out !== null) {
    out.end();
    await finished(out);
  }
  lags.sort((a, b) => a - b);
  return {
    sent: records.length,
    ok: records.filter((r) => r.status === 200 && r.stopped && r.error === null).length,
    send_span_ms: lastSend,
    lag_p99_ms: lags[Math.min(lags.length - 1, Math.floor(lags.length * 0.99))] ?? 0,
    duration_ms: performance.now() - t0,
  };
}
