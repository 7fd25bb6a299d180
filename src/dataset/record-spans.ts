/**
 * @module dataset/record-spans
 * Where each physical record of a CSV file stands in its raw bytes: its first line, its byte offset
 * and its length (without the LF that ends it, nor a CR before that LF). csv-parse reads the text
 * with CRLF made LF (dataset/read-text), so its own byte counts are not file offsets; this splitter
 * runs beside it on the raw chunks. A record ends at an LF outside quotes: in a file csv-parse
 * accepts (no quote inside an unquoted cell, LF the record delimiter) a `"` always opens or closes a
 * quoted cell or is half of a doubled quote, so toggling on each one is exact. Blank lines and rows
 * that csv-parse skips are spans too; the reader pairs each parsed record with the span that starts
 * on its line (`take`). Pure.
 */

/** One physical record: its first line (1-based), byte offset and byte length. */
export interface RecordSpan {
  readonly line: number;
  readonly offset: number;
  readonly length: number;
}

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/** A splitter fed the file's raw chunks in order; `take(line)` hands out the span that starts on `line`. */
export function createRecordSpans() {
  const queue: RecordSpan[] = [];
  let head = 0; // queue[head] is the oldest span not yet taken or passed
  let position = 0; // bytes seen
  let line = 1;
  let quoted = false;
  let start = 0;
  let startLine = 1;
  let last = -1; // the byte before the current one (across chunks)
  const push = (span: RecordSpan) => {
    if (head > 4096 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
    queue.push(span);
  };
  return {
    /** The next raw chunk of the file. */
    feed(chunk: Uint8Array): void {
      for (let i = 0; i < chunk.length; i += 1) {
        const byte = chunk[i]!;
        if (byte === QUOTE) quoted = !quoted;
        // Lines are counted as csv-parse counts them: a CR followed by anything but an LF (in a quoted
        // cell) is a line break, a CRLF is one, and a CR that ends the file none.
        if (last === CR && byte !== LF) line += 1;
        if (byte === LF) {
          line += 1;
          const at = position + i;
          if (!quoted) {
            push({ line: startLine, offset: start, length: at - start - (last === CR ? 1 : 0) });
            start = at + 1;
            startLine = line;
          }
        }
        last = byte;
      }
      position += chunk.length;
    },
    /** The file ended: a last record without an LF after it is a span too. */
    end(): void {
      if (start < position) push({ line: startLine, offset: start, length: position - start });
      start = position;
    },
    /**
     * The span of the record that starts on `line`, dropping the ones before it (blank lines,
     * skipped rows); undefined when no span starts there (the split and the parser disagree).
     */
    take(wanted: number): RecordSpan | undefined {
      while (head < queue.length && queue[head]!.line < wanted) head += 1;
      const span = queue[head];
      if (span === undefined || span.line !== wanted) return undefined;
      head += 1;
      return span;
    },
  };
}

export type RecordSpans = ReturnType<typeof createRecordSpans>;
