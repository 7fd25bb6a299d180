import { describe, expect, it } from 'vitest';
import { createRng } from '../rng.js';
import type { TimedPart } from './model-plan.js';
import { packet } from './parts.js';
import {
  composeStream,
  partOf,
  RESET_AFTER_MS,
  UNTERMINATED_ERROR_PART,
  type ComposeInput,
  type WireStep,
} from './stream-plan.js';

const delta = (at: number, model: number, content: string): TimedPart => ({ at, turn: 1, delta: { model, content } });
const base = (models: TimedPart[][], over: Partial<ComposeInput> = {}): ComposeInput => ({
  prefix: [{ user_message_id: 1 }],
  models,
  fault: null,
  rng: createRng(1),
  stallMs: 500,
  heartbeatMs: 10_000,
  framing: 'ndjson',
  ...over,
});
const contentOf = (s: WireStep) =>
  (partOf(s) as { obj?: { content?: string; type?: string } } | undefined)?.obj?.content;
const typeOf = (s: WireStep) => (partOf(s) as { obj?: { type?: string } } | undefined)?.obj?.type;

describe('composeStream', () => {
  it('puts the bare parts first, then interleaves models by time (ties: lower model_index first)', () => {
    const a = [delta(10, 0, 'a1'), delta(30, 0, 'a2'), delta(50, 0, 'a3')];
    const b = [delta(10, 1, 'b1'), delta(20, 1, 'b2'), delta(60, 1, 'b3')];
    const steps = composeStream(base([a, b]));
    expect(steps[0]).toMatchObject({ at: 0, part: { user_message_id: 1 } });
    expect(steps.slice(1).map(contentOf)).toEqual(['a1', 'b1', 'b2', 'a2', 'a3', 'b3']);
  });
  it('adds a heartbeat (model_index null) for every heartbeat_ms of silence', () => {
    const steps = composeStream(base([[delta(0, 0, 'x'), delta(2500, 0, 'y')]], { heartbeatMs: 1000 }));
    const beats = steps.filter((s) => typeOf(s) === 'chat_heartbeat');
    expect(beats.map((s) => s.at)).toEqual([1000, 2000]);
    expect(beats[0]!.part).toEqual({
      placement: { turn_index: 1, tab_index: 0, sub_turn_index: null, model_index: null },
      obj: { type: 'chat_heartbeat' },
    });
  });
  const deltas = Array.from({ length: 10 }, (_, i) => delta(i * 10, 0, `t${i}`));
  it('reset_mid_stream: some deltas, then a reset', () => {
    const steps = composeStream(base([deltas], { fault: 'reset_mid_stream' }));
    const last = steps.at(-1)!;
    expect(last.destroy).toBe(true);
    expect(last.at).toBe(steps.at(-2)!.at + RESET_AFTER_MS);
    expect(steps.filter(contentOf).length).toBeGreaterThan(1);
    expect(steps.filter(contentOf).length).toBeLessThan(10);
  });
  it('end_without_stop: the stream just ends mid-answer', () => {
    const steps = composeStream(
      base([[...deltas, { at: 100, part: packet(1, 0, { type: 'stop', stop_reason: null }), turn: 1 }]], {
        fault: 'end_without_stop',
      }),
    );
    expect(steps.some((s) => typeOf(s) === 'stop')).toBe(false);
    expect(steps.at(-1)!.destroy).toBeUndefined();
  });
  it('unterminated_error: the deployed error line without a line end comes last', () => {
    const steps = composeStream(base([deltas], { fault: 'unterminated_error' }));
    expect(steps.at(-1)!.raw).toMatch(
      /^\{"error": "[^"]+", "stack_trace": null, "error_code": "UNKNOWN_ERROR", "is_retryable": true, "details": null\}$/,
    );
    expect(JSON.parse(steps.at(-1)!.raw!)).toEqual(UNTERMINATED_ERROR_PART);
  });
  it('malformed_line: one line that is not JSON, then the rest of the stream', () => {
    const steps = composeStream(base([deltas], { fault: 'malformed_line' }));
    const raw = steps.filter((s) => s.raw !== undefined);
    expect(raw).toHaveLength(1);
    expect(raw[0]!.raw!.endsWith('\n')).toBe(true);
    expect(() => JSON.parse(raw[0]!.raw!)).toThrow();
    expect(steps.filter(contentOf).map(contentOf)).toEqual(deltas.map((d) => d.delta?.content));
  });
  it('stall_mid_stream: later steps move by stall_ms, with no heartbeat inside the stall', () => {
    const steps = composeStream(base([deltas], { fault: 'stall_mid_stream', stallMs: 5000, heartbeatMs: 1000 }));
    const times = steps.filter(contentOf).map((s) => s.at);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps.filter((g) => g === 5010)).toHaveLength(1);
    expect(steps.some((s) => typeOf(s) === 'chat_heartbeat')).toBe(false);
  });
});
