/**
 * @module bench/floor/lines
 * The floor client's line splitter: text chunks in, whole lines out (no `\n`, no `\r` before it),
 * by indexOf — the least a client of an NDJSON stream can do. The tail after the last newline waits
 * for the next chunk; `end()` gives it when the body ends without a final newline.
 */
export interface LineSplitter {
  push(chunk: string): void;
  end(): void;
}

/** Calls `onLine` for every non-empty line of the chunks pushed, in order. */
export function createLineSplitter(onLine: (line: string) => void): LineSplitter {
  let tail = '';
  const emit = (line: string) => {
    const text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text !== '') onLine(text);
  };
  return {
    push(chunk) {
      let text = tail === '' ? chunk : tail + chunk;
      let start = 0;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
        emit(text.slice(start, nl));
        start = nl + 1;
      }
      tail = start === 0 ? text : text.slice(start);
      text = '';
    },
    end() {
      if (tail !== '') emit(tail);
      tail = '';
    },
  };
}
