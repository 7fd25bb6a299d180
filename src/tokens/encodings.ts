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
    counter = importEncoding(encoding).then((m) => (text: string) => m.countTokens(text));
    loaded.set(encoding, counter);
  }
  return counter;
}

type EncodingModule = { countTokens(text: string): number };

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
