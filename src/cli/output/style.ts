/**
 * @module cli/output/style
 * Colour on a terminal: verdicts, bad figures and warnings. On when the stream is a TTY, unless
 * NO_COLOR is set (https://no-color.org) or TERM is dumb; FORCE_COLOR forces it either way (as in
 * Node: FORCE_COLOR=0 turns it off); `--color` / `--no-color` (or CHATBENCH_COLOR, or `color` in a
 * config file) decide above all. Only SGR colour codes are written, never cursor or title sequences.
 */
import { Writable } from 'node:stream';
import type { Paint } from '../../reports/paint.js';

export type { Paint } from '../../reports/paint.js';

/**
 * Painted text carries markers, not colour codes: a private-use character and a role letter around
 * it. Everything printed goes through the terminal filter (cli/terminal-safe), which would show a
 * colour code as `\x1b[32m`; `ColourStream`, under that filter, turns the markers into the codes of
 * the palette (or drops them when the stream is not coloured). Input text can hold the same
 * characters; at worst they colour a word, never move the cursor or set a title.
 */
const OPEN = '\uE000';
const CLOSE = '\uE001';
const SGR: Record<string, readonly [number, number]> = {
  g: [32, 39],
  b: [31, 39],
  w: [33, 39],
  d: [2, 22],
  B: [1, 22],
};
const MARKER = /([\uE000\uE001])([gbwdB])/g;

const mark = (role: keyof typeof SGR) => (text: string) =>
  text === '' ? text : `${OPEN}${role}${text}${CLOSE}${role}`;

/** The palette: green for good, red for bad, yellow for warnings, dim for the less important. */
export function createPaint(enabled: boolean): Paint {
  if (!enabled) return { enabled: false, good: String, bad: String, warn: String, dim: String, bold: String };
  return { enabled: true, good: mark('g'), bad: mark('b'), warn: mark('w'), dim: mark('d'), bold: mark('B') };
}

/** `text` with its paint markers turned into SGR colour codes, or dropped. */
export function renderMarkers(text: string, colour: boolean): string {
  return text.replace(MARKER, (_, edge: string, role: string) => {
    if (!colour) return '';
    const [open, close] = SGR[role]!;
    return `\x1b[${edge === OPEN ? open : close}m`;
  });
}

type Out = Writable & { isTTY?: boolean; columns?: number };

/** Writes to `raw` with the paint markers rendered (colour when `colour()` says so); isTTY and columns are raw's. */
export class ColourStream extends Writable {
  readonly isTTY: boolean | undefined;
  readonly columns: number | undefined;
  constructor(
    readonly raw: Out,
    private readonly colour: () => boolean,
  ) {
    super({ decodeStrings: false });
    this.isTTY = raw.isTTY;
    this.columns = raw.columns;
  }

  override _write(chunk: unknown, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    this.raw.write(renderMarkers(text, this.colour()));
    callback();
  }
}

/** Whether to colour a stream: the option (undefined: not given anywhere), then the environment, then the TTY. */
export function colourWanted(
  option: boolean | undefined,
  env: Readonly<Record<string, string | undefined>>,
  isTTY: boolean | undefined,
): boolean {
  if (option !== undefined) return option;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return !['0', 'false'].includes(force.toLowerCase());
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return isTTY === true;
}
