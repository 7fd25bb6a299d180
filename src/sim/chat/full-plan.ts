/**
 * @module sim/chat/full-plan
 * Whole-body responses: the ChatFullResponse of stream=false, sent when the answer would have
 * finished generating (the same timeline as a stream), and the JSON error bodies. Bodies are
 * written as Starlette's JSONResponse writes them (compact, UTF-8). Faults that strike a started
 * stream take their whole-body form here: a stall delays the body, a reset cuts it mid-way, a
 * malformed line or a missing stop becomes a truncated body, an unterminated error an `error_msg`.
 */
import { dumpsResponse } from '../encode/index.js';
import type { FaultKind } from './config.js';
import type { ModelRun } from './model-plan.js';
import { fullResponse, type WireDoc } from './parts.js';
import { RESET_AFTER_MS, type WireStep } from './stream-plan.js';
import type { ResponseHead } from './writer.js';

/** Status and JSON content type; the length is added by jsonSteps' caller when known. */
export const jsonHead = (status: number, length?: number): ResponseHead => ({
  status,
  headers:
    length === undefined
      ? { 'Content-Type': 'application/json' }
      : { 'Content-Type': 'application/json', 'Content-Length': length },
});

/** One step writing a JSON body at `at`. */
export const jsonSteps = (at: number, body: unknown): WireStep[] => [{ at, raw: dumpsResponse(body) }];

export interface FullPlanInput {
  run: ModelRun;
  /** The documents the answer was given (top_documents). */
  documents: readonly WireDoc[];
  /** `tool_calls`: one ToolCallResponse per tool the message used (tool-plan.ts). */
  toolCalls: unknown[];
  messageId: number;
  /** Null when the release does not back-fill a session the request named (before v4.0). */
  sessionId: string | null;
  incognito: boolean;
  /** v4.6+: the body carries `incognito`. */
  withIncognito: boolean;
  fault: FaultKind | null;
  /** Scaled milliseconds a stall adds. */
  stallMs: number;
}

/** The head and steps of a stream=false answer. */
export function planFull(input: FullPlanInput): { head: ResponseHead; steps: WireStep[] } {
  const { run } = input;
  const body = dumpsResponse(
    fullResponse({
      answer: run.text,
      answerCitationless: run.citationless,
      reasoning: run.reasoning,
      toolCalls: input.toolCalls,
      documents: input.documents,
      citations: run.citations,
      messageId: input.messageId,
      chatSessionId: input.sessionId,
      incognito: input.incognito,
      withIncognito: input.withIncognito,
      errorMsg: run.error,
    }),
  );
  const bytes = Buffer.byteLength(body);
  const at = run.endAt + (input.fault === 'stall_mid_stream' ? input.stallMs : 0);
  const half = body.slice(0, Math.floor(body.length / 2));
  switch (input.fault) {
    case 'reset_mid_stream':
      return {
        head: jsonHead(200, bytes),
        steps: [
          { at, raw: half },
          { at: at + RESET_AFTER_MS, destroy: true },
        ],
      };
    case 'malformed_line':
    case 'end_without_stop':
      return { head: jsonHead(200, Buffer.byteLength(half)), steps: [{ at, raw: half }] };
    default:
      return { head: jsonHead(200, bytes), steps: [{ at, raw: body }] };
  }
}
