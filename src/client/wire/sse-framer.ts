/**
 * @module client/wire/sse-framer
 * Real server-sent events (`data:` lines, blank-line separators, `:` comments, CR/LF/CRLF line
 * ends), parsed by eventsource-parser from text that a streaming TextDecoder makes of the bytes, so
 * a chunk boundary inside a character is carried over. Each event's `data` is one JSON part.
 *
 * Size limit: the bytes of an event's non-comment lines (line ends excluded), the line being received
 * included, may not exceed the limit. Crossing it yields one decode_error; the parser is reset and the bytes are
 * discarded up to the end of that event (the next blank line), because the event's remaining data
 * lines would otherwise decode as a fragment of it. Lines are counted at LF bytes: a stream that
 * ends lines with a bare CR counts as one long line and trips the limit after maxLineBytes.
 *
 * Unlike a browser EventSource, end() delivers a final event that lacks its blank line: a server
 * that died mid-stream did send it, and the measurement should see it.
 */
import { createParser } from 'eventsource-parser';
import type { StreamPart } from '../../api/index.js';
import { decodeError, decodeText, EXCERPT_BYTES, excerptOfBytes } from './decode-part.js';
import type { Framer } from './framer.js';

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;

/** Creates the SSE framer; `maxEventBytes` bounds what is ever buffered for one event. */
export function createSseFramer(maxEventBytes: number): Framer {
  let sink: StreamPart[] = [];
  const parser = createParser({
    onEvent: (event) => {
      const part = decodeText(event.data);
      if (part !== undefined) sink.push(part);
    },
  });
  let text = new TextDecoder();
  // The first bytes of the line being received: its first byte classifies it, the rest is the excerpt.
  const lineHead = new Uint8Array(EXCERPT_BYTES);
  let lineHeadLength = 0;
  let lineBytes = 0;
  let eventBytes = 0;
  let discarding = false;

  const feed = (bytes: Uint8Array) => {
    if (bytes.length > 0) parser.feed(text.decode(bytes, { stream: true }));
  };
  const addToLine = (segment: Uint8Array) => {
    if (lineHeadLength < lineHead.length && segment.length > 0) {
      const copied = segment.subarray(0, lineHead.length - lineHeadLength);
      lineHead.set(copied, lineHeadLength);
      lineHeadLength += copied.length;
    }
    lineBytes += segment.length;
  };
  const endLine = () => {
    const blank = lineBytes === 0 || (lineBytes === 1 && lineHead[0] === CR);
    if (blank) {
      eventBytes = 0;
      discarding = false;
    } else if (!discarding && lineHead[0] !== COLON) {
      eventBytes += lineBytes;
    }
    lineBytes = 0;
    lineHeadLength = 0;
    return blank;
  };
  const trip = (out: StreamPart[]) => {
    // Every chunking has received more than this much of the line when the limit trips.
    const surelyReceived = maxEventBytes - eventBytes;
    const excerpt = excerptOfBytes([lineHead.subarray(0, lineHeadLength)], surelyReceived);
    out.push(decodeError(`event exceeds ${maxEventBytes} bytes`, excerpt));
    parser.reset();
    text = new TextDecoder();
    eventBytes = 0;
    discarding = true;
  };

  return {
    push(chunk, out) {
      sink = out;
      let feedFrom = 0;
      let pos = 0;
      while (pos < chunk.length) {
        const newline = chunk.indexOf(LF, pos);
        addToLine(chunk.subarray(pos, newline === -1 ? chunk.length : newline));
        if (!discarding && eventBytes + lineBytes > maxEventBytes) {
          feed(chunk.subarray(feedFrom, pos)); // the complete lines before this one still count
          trip(out);
        }
        if (newline === -1) break;
        const wasDiscarding = discarding;
        if (endLine() && wasDiscarding) feedFrom = newline + 1;
        pos = newline + 1;
      }
      if (!discarding) feed(chunk.subarray(feedFrom));
    },
    end(out) {
      sink = out;
      // Two line ends: one finishes an unterminated line, the other dispatches the pending event.
      if (!discarding) parser.feed(`${text.decode()}\n\n`);
      parser.reset();
      text = new TextDecoder();
      lineBytes = 0;
      lineHeadLength = 0;
      eventBytes = 0;
      discarding = false;
    },
  };
}
