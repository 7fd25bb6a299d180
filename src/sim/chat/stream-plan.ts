/**
 * @module sim/chat/stream-plan
 * The whole stream as a list of timed steps: the bare parts at 0, every model's packets merged in
 * time order (ties: lower model_index first, so interleaving is reproducible), a mid-stream fault
 * if one was chosen, and `chat_heartbeat` packets wherever the plan leaves `heartbeat_ms` of
 * silence (never inside a stall: a stall is silence on purpose).
 */
import { frameText, frameUnterminated, dumps, type Framing } from '../encode/index.js';
import type { PlacementStyle } from '../releases.js';
import type { Rng } from '../rng.js';
import type { FaultKind } from './config.js';
import type { TimedPart } from './model-plan.js';
import { packet } from './parts.js';

/** One write (or a reset) at a time after the request started. */
export interface WireStep {
  /** Milliseconds after the request started (scaled). */
  at: number;
  /** Encoded and framed when sent. */
  part?: unknown;
  /** An answer message_delta of this model (see TimedPart). */
  delta?: { model: number; content: string };
  /** Sent as is (malformed or unterminated lines, whole bodies). */
  raw?: string;
  /** Reset the connection here instead of writing. */
  destroy?: boolean;
  /** No heartbeat in the silence before this step. */
  quiet?: boolean;
  turn?: number;
}

/** Faults that strike inside a started stream. */
export const MID_STREAM_FAULTS: ReadonlySet<FaultKind> = new Set<FaultKind>([
  'reset_mid_stream',
  'stall_mid_stream',
  'malformed_line',
  'end_without_stop',
  'unterminated_error',
]);

/**
 * A reset comes this long (real ms) after the last write: the bytes already sent reach the client first (an
 * RST arriving sooner can make the peer's kernel drop data the client has not read yet).
 */
export const RESET_AFTER_MS = 100;

/** The deployed service's last line when it fails after the stream started. */
export const UNTERMINATED_ERROR_PART = {
  error: 'Simulated failure: the server raised an exception while streaming.',
  stack_trace: null,
  error_code: 'UNKNOWN_ERROR',
  is_retryable: true,
  details: null,
};

export interface ComposeInput {
  prefix: unknown[];
  models: TimedPart[][];
  fault: FaultKind | null;
  rng: Rng;
  /** Scaled milliseconds a stall lasts. */
  stallMs: number;
  heartbeatMs: number;
  framing: Framing;
  /** The release's placement (default: model_index set). */
  style?: PlacementStyle;
  /** v4.1+ sends chat_heartbeat packets in a silence (default true). */
  heartbeats?: boolean;
}

/** Builds the stream's steps. */
export function composeStream(input: ComposeInput): WireStep[] {
  const deltas: number[] = [];
  const merged = input.models
    .flat()
    .sort((a, b) => a.at - b.at)
    .map((p, i): WireStep => {
      if (p.delta !== undefined) deltas.push(i);
      return p;
    });
  const steps = [
    ...input.prefix.map((part): WireStep => ({ at: 0, part, turn: 0 })),
    ...applyFault(merged, deltas, input),
  ];
  return input.heartbeats === false ? steps : withHeartbeats(steps, input.heartbeatMs);
}

function applyFault(steps: WireStep[], deltas: number[], input: ComposeInput): WireStep[] {
  if (input.fault === null || !MID_STREAM_FAULTS.has(input.fault) || steps.length === 0) return steps;
  const pos = deltas[Math.floor(deltas.length * (0.3 + 0.4 * input.rng.next()))] ?? Math.floor(steps.length / 2);
  const at = steps[pos]?.at ?? 0;
  const head = steps.slice(0, pos + 1);
  switch (input.fault) {
    case 'reset_mid_stream':
      return [...head, { at: at + RESET_AFTER_MS, destroy: true }];
    case 'end_without_stop':
      return head;
    case 'unterminated_error':
      return [...head, { at, raw: frameUnterminated(UNTERMINATED_ERROR_PART, input.framing) }];
    case 'malformed_line': {
      const line = dumps(partOf(steps[pos] ?? { at }, input.style));
      return [
        ...head,
        { at, raw: frameText(line.slice(0, Math.ceil(line.length / 2)), input.framing) },
        ...steps.slice(pos + 1),
      ];
    }
    case 'stall_mid_stream': {
      const tail = steps.slice(pos + 1).map((s) => ({ ...s, at: s.at + input.stallMs }));
      if (tail[0] !== undefined) tail[0].quiet = true;
      return [...head, ...tail];
    }
    default:
      return steps;
  }
}

/** The part a step sends (a delta's packet is built here; the writer templates it instead). */
export function partOf(step: WireStep, style: PlacementStyle = 'set'): unknown {
  if (step.delta === undefined) return step.part;
  return packet(step.turn ?? 1, step.delta.model, { type: 'message_delta', content: step.delta.content }, style);
}

function withHeartbeats(steps: WireStep[], heartbeatMs: number): WireStep[] {
  const out: WireStep[] = [];
  let turn = 0;
  let last: number | undefined;
  for (const step of steps) {
    if (last !== undefined && !step.quiet) {
      for (let at = last + heartbeatMs; at < step.at; at += heartbeatMs) {
        out.push({ at, part: packet(turn, null, { type: 'chat_heartbeat' }), turn });
      }
    }
    out.push(step);
    last = step.at;
    if (step.turn !== undefined) turn = step.turn;
  }
  return out;
}
