/**
 * @module sim/chat/wire-plan
 * The form a response waits in while it plays: send times in a Float64Array, a kind per step in a
 * Uint8Array, and one string per step. Thousands of streams live for seconds each; as objects their
 * plans would be promoted to the old generation and make every major GC long (tens of ms of send
 * lag). Here a stream holds three arrays, and a delta's string is the token itself, shared with the
 * cached retrieval: its line is templated when it is sent.
 */
import { dumps, frameText, type Framing } from '../encode/index.js';
import type { PlacementStyle } from '../releases.js';
import { packet } from './parts.js';
import { partOf, type WireStep } from './stream-plan.js';

/** `text` is a framed line. */
const RAW = 0;
/** Reset the connection. */
const RESET = 255;
/** `text` is the content of a message_delta of model (kind − 1). */
const DELTA = 1;

export interface WirePlan {
  at: Float64Array;
  kind: Uint8Array;
  text: string[];
  framing: Framing;
  style: PlacementStyle;
}

/** Encodes and packs steps. Raw steps are sent as they are; other parts are encoded with dumps. */
export function compilePlan(steps: readonly WireStep[], framing: Framing, style: PlacementStyle = 'set'): WirePlan {
  const plan: WirePlan = {
    at: new Float64Array(steps.length),
    kind: new Uint8Array(steps.length),
    text: new Array<string>(steps.length),
    framing,
    style,
  };
  steps.forEach((step, i) => {
    plan.at[i] = step.at;
    if (step.destroy === true) {
      plan.kind[i] = RESET;
      plan.text[i] = '';
    } else if (step.delta !== undefined && (step.turn ?? 1) === 1) {
      plan.kind[i] = DELTA + step.delta.model;
      plan.text[i] = step.delta.content;
    } else {
      plan.kind[i] = RAW;
      plan.text[i] = step.raw ?? frameText(dumps(partOf(step, style)), framing);
    }
  });
  return plan;
}

/** Whether step i resets the connection. */
export const isReset = (plan: WirePlan, i: number): boolean => plan.kind[i] === RESET;

// `{"placement": {... "model_index": m}, "obj": {"type": "message_delta", "content": ` for m = 0..2, per placement style
const prefixes = (style: PlacementStyle) =>
  [0, 1, 2].map((m) => dumps(packet(1, m, { type: 'message_delta', content: '' }, style)).slice(0, -4));
const DELTA_PREFIX: Record<PlacementStyle, string[]> = {
  set: prefixes('set'),
  null: prefixes('null'),
  absent: prefixes('absent'),
};

/** The framed text of step i (not a reset). */
export function stepText(plan: WirePlan, i: number): string {
  const kind = plan.kind[i] ?? RAW;
  const text = plan.text[i] ?? '';
  if (kind === RAW) return text;
  return frameText(`${DELTA_PREFIX[plan.style][kind - DELTA] ?? ''}${dumps(text)}}}`, plan.framing);
}
