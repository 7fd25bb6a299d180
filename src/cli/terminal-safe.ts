/**
 * @module cli/terminal-safe
 * What chatbench prints never drives the terminal. Text from a dataset, a sets file, the service
 * or a file name can hold escape sequences (a CSV header with `ESC]0;title BEL`, colours, cursor
 * moves, OSC 52 clipboard writes); echoed raw, they would act on the user's terminal. main() wraps
 * stdout and stderr once, so every message, table and report list goes through `terminalSafe`:
 * control characters other than tab and newline become visible escapes (`\x1b`, `\u009b`).
 *
 * The live views (progress line, load view) draw with `\r` and CSI sequences of their own and print
 * only numbers they compute; they write to the raw stream (`liveOutput`).
 */
import { Writable } from 'node:stream';

// C0 controls but tab and newline, DEL, C1 controls, and the line/paragraph separators some
// terminals act on.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029]/g;

/** `text` with every control character shown as an escape (`\x1b`), tab and newline kept. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

type Out = Writable & { isTTY?: boolean; columns?: number };

/** A stream that writes `terminalSafe(text)` to `raw`; isTTY and columns are the raw stream's. */
export class TerminalSafeStream extends Writable {
  readonly isTTY: boolean | undefined;
  readonly columns: number | undefined;
  constructor(readonly raw: Out) {
    super({ decodeStrings: false });
    this.isTTY = raw.isTTY;
    this.columns = raw.columns;
  }

  override _write(chunk: unknown, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    // The raw stream's own buffering applies; its errors (a closed pipe) are its listeners' to handle.
    this.raw.write(terminalSafe(text));
    callback();
  }
}

/**
 * The stream a live view may draw on: the raw stream under a TerminalSafeStream; a stream that
 * forwards elsewhere (cli/output's, which follows --quiet and --json) says where with `live()`;
 * else `out` itself.
 */
export function liveOutput(out: Out): Out {
  if (out instanceof TerminalSafeStream) return out.raw;
  const live = (out as { live?: () => Out }).live;
  return typeof live === 'function' ? live.call(out) : out;
}
