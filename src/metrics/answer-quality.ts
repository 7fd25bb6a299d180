/**
 * @module metrics/answer-quality
 * The answer-quality figures computed without a model (docs/reference/metrics.md "Answer quality"): token F1 and
 * ROUGE-L between the answer and the dataset's reference answer, over SQuAD's normalisation.
 */
import { loweredAnswer } from './answer-text.js';

const ARTICLES: ReadonlySet<string> = new Set(['a', 'an', 'the']);
/** Unicode punctuation and symbols: SQuAD drops string.punctuation, which holds both kinds. */
const PUNCTUATION = /[\p{P}\p{S}]/gu;

/**
 * SQuAD's normalisation, after the citation markers (`[[n]](link)`) are removed: Unicode NFKC,
 * lower case, punctuation and symbols dropped (not replaced: "state-of-the-art" → "stateoftheart",
 * on both sides alike), split on whitespace, the articles a/an/the left out.
 */
export function answerTokens(text: string): string[] {
  return tokenText(text)
    .split(/\s+/u)
    .filter((token) => token !== '' && !ARTICLES.has(token));
}

/** The text answerTokens splits: NFKC, lower case, punctuation and symbols dropped. */
const tokenText = (text: string): string => loweredAnswer(text).replace(PUNCTUATION, '');

const WHITESPACE = /\s/u;

/** Whether the UTF-16 unit at `i` is whitespace as answerTokens' split reads it (no astral character is). */
function isSpaceAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 0x80) return c === 32 || (c >= 9 && c <= 13);
  return WHITESPACE.test(text[i]!);
}

/** Whether text[start, end) is one of ARTICLES, read in place. */
function isArticleAt(text: string, start: number, end: number): boolean {
  switch (end - start) {
    case 1:
      return text.charCodeAt(start) === 0x61; // a
    case 2:
      return text.startsWith('an', start);
    case 3:
      return text.startsWith('the', start);
    default:
      return false;
  }
}

/** 2PR / (P + R), 0 when both are 0. */
const fMeasure = (precision: number, recall: number): number =>
  precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);

/**
 * Token F1 of answer tokens A against reference tokens G: common = |A ∩ G| as multisets,
 * P = common/|A|, R = common/|G|. Both empty → 1; common = 0 (one side empty included) → 0.
 */
export function tokenF1(answer: readonly string[], reference: readonly string[]): number {
  if (answer.length === 0 && reference.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const token of reference) counts.set(token, (counts.get(token) ?? 0) + 1);
  let common = 0;
  for (const token of answer) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      common += 1;
      counts.set(token, left - 1);
    }
  }
  if (common === 0) return 0;
  return fMeasure(common / answer.length, common / reference.length);
}

/**
 * Length of the longest common subsequence. Against a `b` of at most BIT_TOKENS tokens (a reference
 * answer of a sentence or two, which scoring reads thousands of times), one bit per token of b
 * (bitLcsLength); otherwise the table, in O(|a|·|b|) time and O(|b|) memory. Tokens are
 * compared as small integers (b's distinct tokens numbered once, a token of a absent from b never
 * matches) over two reused typed rows: no row allocated per token of a, no string compared per cell.
 */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  if (b.length <= BIT_TOKENS) return bitLcsLength(a, b);
  const ids = new Map<string, number>();
  const right = new Int32Array(b.length);
  for (let j = 0; j < b.length; j += 1) {
    let id = ids.get(b[j]!);
    if (id === undefined) ids.set(b[j]!, (id = ids.size));
    right[j] = id;
  }
  let previous = new Int32Array(b.length + 1);
  let row = new Int32Array(b.length + 1);
  for (const token of a) {
    const x = ids.get(token) ?? -1;
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = x === right[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, row[j - 1]!);
    }
    [previous, row] = [row, previous];
  }
  return previous[b.length]!;
}

/** The longest `b` bitLcsLength takes: its bits and a carry fit in a 32-bit integer. */
const BIT_TOKENS = 30;

/** For each distinct token of a `b`, the bits of the positions it stands at; kept per `b` (a cached reference's list). */
const bitMasks = new WeakMap<readonly string[], ReadonlyMap<string, number>>();

function masksOf(b: readonly string[]): ReadonlyMap<string, number> {
  let masks = bitMasks.get(b);
  if (masks === undefined) {
    const built = new Map<string, number>();
    for (let j = 0; j < b.length; j++) built.set(b[j]!, (built.get(b[j]!) ?? 0) | (1 << j));
    bitMasks.set(b, (masks = built));
  }
  return masks;
}

/**
 * lcsLength for |b| ≤ BIT_TOKENS in O(|a|) word operations (Hyyrö's bit-vector form of Allison and
 * Dix's algorithm): V starts all ones over b's positions; for each token of a, with U = V ∧ M(token),
 * V ← (V + U) ∨ (V − U), kept to |b| bits; the LCS is the number of zero bits of V. Held equal to the
 * table by src/metrics/answer-quality.test.ts. Pure but for the masks kept per `b`.
 */
function bitLcsLength(a: readonly string[], b: readonly string[]): number {
  const masks = masksOf(b);
  const all = b.length === 0 ? 0 : 2 ** b.length - 1;
  let v = all;
  for (let i = 0; i < a.length; i++) {
    const m = masks.get(a[i]!);
    if (m === undefined) continue;
    const u = v & m;
    v = ((v + u) | (v - u)) & all;
  }
  let ones = 0;
  for (let bits = v; bits !== 0; bits &= bits - 1) ones++;
  return b.length - ones;
}

/** ROUGE-L F-measure (β = 1): P = LCS/|A|, R = LCS/|G|. Both empty → 1; LCS = 0 → 0. */
export function rougeL(answer: readonly string[], reference: readonly string[]): number {
  if (answer.length === 0 && reference.length === 0) return 1;
  const lcs = lcsLength(answer, reference);
  if (lcs === 0) return 0;
  return fMeasure(lcs / answer.length, lcs / reference.length);
}

/**
 * A reference answer as scoring reads it, made once per reference: its tokens, and for a short one
 * (≤ BIT_TOKENS) what the one-pass scoring of an answer against it needs: each distinct token's
 * number, its count, and the bits of its positions (bitLcsLength's masks).
 */
interface Reference {
  readonly tokens: readonly string[];
  readonly short: {
    /** Each distinct token with its number, by (length, first unit): read at a place in the answer's text, nothing sliced. */
    readonly byShape: ReadonlyMap<number, ReadonlyArray<{ readonly token: string; readonly id: number }>>;
    readonly counts: Int32Array;
    readonly masks: Int32Array;
  } | null;
}

/** The bucket key of a token: its length and first UTF-16 unit. */
const shapeOf = (length: number, first: number): number => length * 0x10000 + first;

/** References made lately: a load run scores the same few references thousands of times. */
const referenceCache = new Map<string, Reference | null>();
const REFERENCES_CACHED = 1_024;

/** null: a blank reference (the scores are N/A). */
function referenceOf(reference: string): Reference | null {
  let made = referenceCache.get(reference);
  if (made === undefined) {
    if (referenceCache.size >= REFERENCES_CACHED) referenceCache.clear();
    made = reference.trim() === '' ? null : makeReference(answerTokens(reference));
    referenceCache.set(reference, made);
  }
  return made;
}

function makeReference(tokens: readonly string[]): Reference {
  if (tokens.length > BIT_TOKENS) return { tokens, short: null };
  const ids = new Map<string, number>();
  for (const token of tokens) if (!ids.has(token)) ids.set(token, ids.size);
  const counts = new Int32Array(ids.size);
  const masks = new Int32Array(ids.size);
  for (let j = 0; j < tokens.length; j++) {
    const id = ids.get(tokens[j]!)!;
    counts[id]! += 1;
    masks[id]! |= 1 << j;
  }
  const byShape = new Map<number, Array<{ token: string; id: number }>>();
  for (const [token, id] of ids) {
    const shape = shapeOf(token.length, token.charCodeAt(0));
    const bucket = byShape.get(shape);
    if (bucket === undefined) byShape.set(shape, [{ token, id }]);
    else bucket.push({ token, id });
  }
  return { tokens, short: { byShape, counts, masks } };
}

/** The number of the reference's token equal to text[start, end), or -1. */
function tokenIdAt(
  byShape: NonNullable<Reference['short']>['byShape'],
  text: string,
  start: number,
  end: number,
): number {
  const bucket = byShape.get(shapeOf(end - start, text.charCodeAt(start)));
  if (bucket === undefined) return -1;
  for (let k = 0; k < bucket.length; k++) if (text.startsWith(bucket[k]!.token, start)) return bucket[k]!.id;
  return -1;
}

/** The counts left to match while an answer is read (reused: scoring never nests). */
let left = new Int32Array(BIT_TOKENS);

/** answer_f1 and rouge_l of an answer; both null (N/A) without a reference answer. A null answer counts as empty. */
export function referenceScores(
  answer: string | null,
  reference: string | null | undefined,
): { answer_f1: number | null; rouge_l: number | null } {
  const g = reference === null || reference === undefined ? null : referenceOf(reference);
  if (g === null) return { answer_f1: null, rouge_l: null };
  if (g.short === null) {
    const a = answerTokens(answer ?? '');
    return { answer_f1: tokenF1(a, g.tokens), rouge_l: rougeL(a, g.tokens) };
  }
  // tokenF1 and bitLcsLength in one pass over the answer's text, its tokens read in place (as
  // answerTokens would split them) and looked up once each; no token, list or map built per answer:
  // the same figures (answer-quality.test.ts holds them equal).
  const { byShape, counts, masks } = g.short;
  const text = tokenText(answer ?? '');
  if (left.length < counts.length) left = new Int32Array(counts.length);
  left.set(counts);
  const n = g.tokens.length;
  const all = n === 0 ? 0 : 2 ** n - 1;
  let common = 0;
  let v = all;
  let answered = 0; // the answer's tokens
  for (let i = 0; i < text.length;) {
    while (i < text.length && isSpaceAt(text, i)) i++;
    if (i === text.length) break;
    const start = i;
    while (i < text.length && !isSpaceAt(text, i)) i++;
    if (isArticleAt(text, start, i)) continue;
    answered += 1;
    const id = tokenIdAt(byShape, text, start, i);
    if (id === -1) continue;
    if (left[id]! > 0) {
      common += 1;
      left[id]! -= 1;
    }
    const u = v & masks[id]!;
    v = ((v + u) | (v - u)) & all;
  }
  let ones = 0;
  for (let bits = v; bits !== 0; bits &= bits - 1) ones++;
  const lcs = n - ones;
  const bothEmpty = answered === 0 && n === 0;
  return {
    answer_f1: bothEmpty ? 1 : common === 0 ? 0 : fMeasure(common / answered, common / n),
    rouge_l: bothEmpty ? 1 : lcs === 0 ? 0 : fMeasure(lcs / answered, lcs / n),
  };
}
