import { describe, expect, it } from 'vitest';
import type { SimTrace } from './sim-trace.js';
import { decompose, spreadOf, tailLegs, type ClientTiming } from './timing-figures.js';

const scheduled = { first_part_ms: 0, first_answer_ms: 300 };

/** A client exchange and its simulator trace; the simulator's clock runs `offset` ms ahead. */
function pair(
  id: number,
  lateness: { send: number; read: number; handle: number; step: number; receive: number },
  offset = 0,
): { c: ClientTiming; t: SimTrace } {
  const sent = 1_000 + id * 10;
  const written = sent + lateness.send;
  const arrival = written + lateness.read;
  const firstFlush = arrival + lateness.handle;
  const deltaFlush = firstFlush + 300 + lateness.step;
  return {
    c: {
      message_id: id,
      sent,
      written,
      ttfp_ms: firstFlush + lateness.receive - sent,
      ttft_ms: deltaFlush + lateness.receive - sent,
      outcome: 'ok',
    },
    t: {
      message_id: id,
      arrival: arrival + offset,
      first_call: firstFlush - 0.1 + offset,
      first_flush: firstFlush + offset,
      delta_call: deltaFlush - 0.2 + offset,
      delta_flush: deltaFlush + offset,
    },
  };
}

describe('decompose', () => {
  it('splits each error exactly into client and simulator parts, on the client clock', () => {
    const { c, t } = pair(7, { send: 1, read: 2, handle: 3, step: 4, receive: 5 }, 42);
    const { rows, unmatched, not_ok } = decompose([c], [t], 42, scheduled);
    expect({ unmatched, not_ok }).toEqual({ unmatched: 0, not_ok: 0 });
    const [row] = rows;
    expect(row?.ttfp_error_ms).toBeCloseTo(1 + 2 + 3 + 5, 9);
    expect(row?.ttft_error_ms).toBeCloseTo(1 + 2 + 3 + 4 + 5, 9);
    expect(row?.client_send_ms).toBeCloseTo(1, 9);
    expect(row?.sim_read_ms).toBeCloseTo(2, 9);
    expect(row?.client_first_answer_ms).toBeCloseTo(5, 9);
    expect(row?.sim_first_answer_ms).toBeCloseTo(3 + 4, 9);
    expect(row?.client_ttft_ms).toBeCloseTo(6, 9);
    expect(row?.sim_ttft_ms).toBeCloseTo(9, 9);
    expect((row?.client_ttfp_ms ?? 0) + (row?.sim_ttfp_ms ?? 0)).toBeCloseTo(row?.ttfp_error_ms ?? Number.NaN, 9);
    expect(row?.sim_answer_step_late_ms).toBeCloseTo(4 - 0.1, 9);
    expect(row?.sim_flush_wait_ms).toBeCloseTo(0.2, 9);
  });

  it('leaves out failed exchanges and those it cannot join', () => {
    const a = pair(1, { send: 0, read: 0, handle: 0, step: 0, receive: 0 });
    const b = pair(2, { send: 0, read: 0, handle: 0, step: 0, receive: 0 });
    const noDelta: SimTrace = { ...b.t, delta_call: null, delta_flush: null };
    const result = decompose(
      [a.c, { ...a.c, outcome: 'stream_error' }, b.c, { ...a.c, message_id: 99 }, { ...a.c, written: Number.NaN }],
      [a.t, noDelta],
      0,
      scheduled,
    );
    expect(result.rows).toHaveLength(1);
    expect(result).toMatchObject({ not_ok: 1, unmatched: 3 });
  });
});

describe('tailLegs and spreadOf', () => {
  it('averages each leg over the worst requests', () => {
    const calm = Array.from({ length: 99 }, (_, i) =>
      pair(i, { send: 0.1, read: 0.1, handle: 1, step: 0, receive: 0.5 }),
    );
    const late = pair(500, { send: 1, read: 80, handle: 2, step: 10, receive: 7 });
    const { rows } = decompose(
      [...calm, late].map((p) => p.c),
      [...calm, late].map((p) => p.t),
      0,
      scheduled,
    );
    const tail = tailLegs(rows, 'ttft');
    expect(tail?.count).toBe(1);
    expect(tail?.sim_read_ms).toBeCloseTo(80, 6);
    expect(tail?.sim_send_ms).toBeCloseTo(12, 6);
    expect(tail?.error_ms).toBeCloseTo(1 + 80 + 12 + 7, 6);
    expect(tailLegs([], 'ttfp')).toBeNull();
  });

  it('gives percentiles rounded to µs, and nothing for no values', () => {
    expect(spreadOf([3, 1, 2])).toEqual({ count: 3, min: 1, p50: 2, p90: 2.8, p99: 2.98, max: 3 });
    expect(spreadOf([])).toBeNull();
  });
});
