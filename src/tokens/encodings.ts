/**
 * @module tokens/encodings
 * Counts answer tokens with gpt-tokenizer (a pure-JavaScript BPE tokenizer: no native build, no
 * download at install), one encoding per set: `o200k_base` (GPT-4o and later) by default, or the
 * set's `encoding` (sets file). For a model that is not OpenAI's the count is an estimate: its own
 * tokenizer splits text differently (docs/reference/metrics.md "Tokens"). Each encoding's module is
 * imported lazily, once, when the first answer of a set using it is counted: loading one takes about
 * a second and a run that never computes figures never pays it. Counting happens when the reports
 * are built from results.jsonl, never while requests are measured.
 */
import { DEFAULT_ENCODING, type Encoding } from '../records/encoding.js';

export { DEFAULT_ENCODING, type Encoding };

export type CountTokens = (text: string) => number;

const loaded = new Map<Encoding, Promise<CountTokens>>();

/** The counter of one encoding (imported on first use, then shared). */
export function tokenCounter(encoding: Encoding): Promise<CountTokens> {
  let counter = loaded.get(encoding);
  if (counter === undefined) {
    // One literal import per encoding, so the module graph stays statically known.
    counter = importEncoding(encoding).then((m) => {
      m.setMergeCacheSize(MERGE_CACHE_SIZE);
      return (text: string) => countInPieces((piece) => m.countTokens(piece), text);
    });
    loaded.set(encoding, counter);
  }
  return counter;
}

type EncodingModule = { countTokens(text: string): number; setMergeCacheSize(size: number): void };

/**
 * The words whose merges each encoding keeps (gpt-tokenizer's LRU; its default is 100,000), held to
 * the process's end: a run of many distinct answers fills it with words that seldom recur. Its share
 * of a run's memory was not measured apart from the other changes of docs/limits.md ("Session 34").
 */
export const MERGE_CACHE_SIZE = 10_000;

/** The longest run of non-space characters counted in one go. */
export const LONGEST_PIECE = 1024;

/**
 * `count(text)`, with every run of more than LONGEST_PIECE non-space characters counted in pieces of
 * that length. BPE merges within one pre-token in time quadratic in its length: an answer of
 * 200,000 letters with no space took 27 s to count (and a hostile 1 MiB one would take minutes),
 * while ordinary text of the same size takes milliseconds. Text without such a run is counted whole,
 * so the count of any real answer is unchanged; in such a run a piece's boundary may split what the
 * tokenizer would have merged, which moves the count of that run by a few tokens at most.
 */
export function countInPieces(count: CountTokens, text: string): number {
  if (text.length <= LONGEST_PIECE || !LONG_RUN.test(text)) return count(text);
  let total = 0;
  for (const part of text.split(LONG_RUNS)) {
    if (part.length === 0) continue;
    if (part.length <= LONGEST_PIECE || /\s/.test(part)) {
      total += count(part);
      continue;
    }
    for (let at = 0; at < part.length;) {
      let end = Math.min(at + LONGEST_PIECE, part.length);
      // Never between the halves of a surrogate pair.
      if (end < part.length && /[\uD800-\uDBFF]/.test(part[end - 1]!)) end -= 1;
      total += count(part.slice(at, end));
      at = end;
    }
  }
  return total;
}

const LONG_RUN = new RegExp(`\\S{${LONGEST_PIECE + 1}}`);
const LONG_RUNS = new RegExp(`(\\S{${LONGEST_PIECE + 1},})`);

function importEncoding(encoding: Encoding): Promise<EncodingModule> {
  switch (encoding) {
    case 'o200k_base':
      return import('gpt-tokenizer/encoding/o200k_base');
    case 'o200k_harmony':
      return import('gpt-tokenizer/encoding/o200k_harmony');
    case 'cl100k_base':
      return import('gpt-tokenizer/encoding/cl100k_base');
    case 'p50k_base':
      return import('gpt-tokenizer/encoding/p50k_base');
    case 'p50k_edit':
      return import('gpt-tokenizer/encoding/p50k_edit');
    case 'r50k_base':
      return import('gpt-tokenizer/encoding/r50k_base');
  }
}
