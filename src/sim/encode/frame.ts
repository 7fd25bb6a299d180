/**
 * @module sim/encode/frame
 * How one part goes on the wire. The deployed service writes newline-delimited JSON under a
 * `text/event-stream` content type; real SSE framing (`data: <json>\n\n`) is the option the
 * description's wording allows.
 */
import { dumps } from './json.js';

/** `ndjson` is what the deployed service sends; `sse` is real server-sent events. */
export const FRAMINGS = ['ndjson', 'sse'] as const;
export type Framing = (typeof FRAMINGS)[number];

/** The content type of a stream, whatever its framing (the deployed service sends this one). */
export const STREAM_CONTENT_TYPE = 'text/event-stream; charset=utf-8';

/** Frames already-encoded JSON text as one complete line (ndjson) or event (sse). */
export function frameText(json: string, framing: Framing): string {
  return framing === 'sse' ? `data: ${json}\n\n` : `${json}\n`;
}

/** Encodes a part with `dumps` and frames it. */
export function framePart(part: unknown, framing: Framing): string {
  return frameText(dumps(part), framing);
}

/**
 * The deployed service's last line after a failure: the error object with no line end. Under SSE
 * framing the event is likewise left unterminated (no blank line).
 */
export function frameUnterminated(part: unknown, framing: Framing): string {
  return framing === 'sse' ? `data: ${dumps(part)}` : dumps(part);
}
