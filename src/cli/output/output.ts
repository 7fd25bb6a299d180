/**
 * @module cli/output/output
 * The output modes every command shares, settled once its options are merged (cli/options):
 *
 * - normal: what the command prints on stdout, progress and notes on stderr;
 * - `--json`: stdout holds one JSON document, the command's result, and nothing else (progress and
 *   notes stay on stderr), so `chatbench load ... --json | jq .` works; a command that fails still
 *   prints `{"command", "exit_code", "errors"}`;
 * - `--quiet`: only the verdict (stdout) and errors and failed gates (stderr);
 * - `--verbose`: normal, plus a line per request on stderr as each one finishes.
 *
 * Commands were built before the options were known, so the streams they write to switch at write
 * time: `stdout`/`stderr` here forward to the real stream, or to nothing. Everything goes through
 * the terminal filter (cli/terminal-safe: text from inputs never drives the terminal), then the
 * colour stream (paint markers to colour codes, cli/output/style).
 */
import { Writable } from 'node:stream';
import type { Io } from '../io.js';
import { TerminalSafeStream, liveOutput } from '../terminal-safe.js';
import { ColourStream, colourWanted, createPaint } from './style.js';
import type { Out, Output, OutputMode } from './types.js';

export type { Output, OutputMode, OutputSettings } from './types.js';

/** Takes everything, keeps nothing (a live view under --quiet). */
const nowhere = (): Out => new Writable({ write: (_chunk, _encoding, callback) => callback() });

/** A stream whose target is looked up at each write; isTTY and columns are the target's (for live views). */
class SwitchStream extends Writable {
  constructor(private readonly target: () => Out | null) {
    super({ decodeStrings: false });
  }

  /** Where a live view draws (cli/terminal-safe liveOutput): under the filter, or nowhere when silenced. */
  live(): Out {
    const target = this.target();
    return target === null ? nowhere() : liveOutput(target);
  }

  get isTTY(): boolean | undefined {
    return this.target()?.isTTY;
  }

  get columns(): number | undefined {
    return this.target()?.columns;
  }

  override _write(chunk: unknown, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const target = this.target();
    if (target !== null) target.write(chunk as string, encoding);
    callback();
  }
}

export function createOutput(raw: Pick<Io, 'stdout' | 'stderr' | 'env'>): Output {
  let mode: OutputMode = 'normal';
  let paint = createPaint(false);
  let paintErr = createPaint(false);
  let resultGiven = false;
  let lastResult: unknown;
  const io = {
    stdout: new TerminalSafeStream(new ColourStream(raw.stdout, () => paint.enabled)),
    stderr: new TerminalSafeStream(new ColourStream(raw.stderr, () => paintErr.enabled)),
    env: raw.env,
  };
  const line = (text: string) => (text.endsWith('\n') ? text : `${text}\n`);
  return {
    get mode() {
      return mode;
    },
    get paint() {
      return paint;
    },
    get paintErr() {
      return paintErr;
    },
    get resultGiven() {
      return resultGiven;
    },
    get lastResult() {
      return lastResult;
    },
    stdout: new SwitchStream(() => (mode === 'normal' || mode === 'verbose' ? io.stdout : null)),
    stderr: new SwitchStream(() => (mode === 'quiet' ? null : io.stderr)),
    out: io.stdout,
    err: io.stderr,
    verdict(text) {
      if (mode !== 'json') io.stdout.write(line(text));
    },
    alert(text) {
      io.stderr.write(line(text));
    },
    detail(text) {
      if (mode === 'verbose') io.stderr.write(line(text));
    },
    result(value) {
      if (resultGiven) return;
      resultGiven = true;
      lastResult = value;
      if (mode === 'json') io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    },
    configure(settings) {
      const chosen = (['json', 'quiet', 'verbose'] as const).filter((m) => settings[m] === true);
      mode = chosen[0] ?? 'normal';
      paint = createPaint(mode !== 'json' && colourWanted(settings.color, raw.env, raw.stdout.isTTY));
      paintErr = createPaint(colourWanted(settings.color, raw.env, raw.stderr.isTTY));
    },
  };
}

/** The output of a command's Io (main sets it); a plain one over the Io's streams otherwise (a handler called directly). */
export function outputOf(io: Io): Output {
  return io.output ?? createOutput(io);
}
