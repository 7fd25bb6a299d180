/**
 * @module sim/corpus/text
 * Small text tools shared by retrieval display (blurbs, highlights) and answer building (which
 * sentences match a question): words, stop words, sentences, passages.
 */

/** Words as lowercase letter/digit runs (Unicode-aware). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Function words that say nothing about what a question is about. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers him his how i ' +
    'if in into is it its itself just me more most my no nor not now of off on once only or other our ours out over own ' +
    'same she should so some such than that the their theirs them then there these they this those through to too under ' +
    'until up very was we were what when where which while who whom why will with would you your yours get got tell ' +
    'please much many need know us let also may might must shall'
  ).split(' '),
);

/** The words of a question that carry meaning: lowercase, no stop words, no duplicates. */
export function contentTerms(text: string): string[] {
  return [...new Set(words(text).filter((w) => !STOP_WORDS.has(w)))];
}

/** Paragraphs: blocks separated by blank lines, whitespace collapsed. */
export function paragraphs(content: string): string[] {
  return content
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter((p) => p !== '');
}

/**
 * Sentences of a document: paragraphs and single lines (list items) split at `.`, `!` or `?`
 * followed by a space and an upper-case letter, digit or quote. Fragments of fewer than four
 * words (headings, list labels) are dropped: an answer is made of statements.
 */
export function sentences(content: string): string[] {
  const out: string[] = [];
  for (const line of content.split(/\n+/)) {
    const text = line
      .replace(/\s+/g, ' ')
      .replace(/^[-*•]\s+|^\d+[.)]\s+/, '')
      .trim();
    for (const sentence of text.split(/(?<=[.!?])\s+(?=["'(\p{Lu}\p{N}])/u)) {
      if (words(sentence).length >= 4) out.push(sentence.trim());
    }
  }
  return out;
}

/** Cuts text to at most `max` characters at a word boundary. */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : text.slice(0, max)).trimEnd();
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * The first whole-word, case-insensitive occurrence of `term` in `text`. A scan with indexOf over
 * the lowercased text where lowercasing keeps every index (always, for this corpus): compiling a
 * Unicode regex per term cost the simulator milliseconds per new question, time a client would
 * have measured as the service's. Otherwise the regex, which gives the same answer.
 */
function findWord({ flat, lower }: FlatText, term: string): { index: number; 0: string } | undefined {
  const needle = term.toLowerCase();
  if (lower.length === flat.length && needle.length === term.length && needle.length > 0) {
    for (let at = lower.indexOf(needle); at !== -1; at = lower.indexOf(needle, at + 1)) {
      const end = at + needle.length;
      if (!WORD_CHAR.test(boundaryChar(flat, at, -1)) && !WORD_CHAR.test(boundaryChar(flat, end, 1)))
        return { index: at, 0: flat.slice(at, end) };
    }
    return undefined;
  }
  const match = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term)}(?![\\p{L}\\p{N}])`, 'iu').exec(flat);
  return match === null ? undefined : { index: match.index, 0: match[0] };
}

/** The whole code point just before `at` (side −1) or at `at` (side 1); '' at either end. */
function boundaryChar(text: string, at: number, side: -1 | 1): string {
  if (side === 1) return at >= text.length ? '' : String.fromCodePoint(text.codePointAt(at)!);
  if (at <= 0) return '';
  const low = text.charCodeAt(at - 1);
  return low >= 0xdc00 && low <= 0xdfff && at >= 2 ? text.slice(at - 2, at) : text.slice(at - 1, at);
}

/** A text with its runs of white space made one space, and that lowercased: what `highlight` searches. */
export interface FlatText {
  readonly flat: string;
  readonly lower: string;
}

/** `text` made ready for `highlight` (once per document: a document is searched for many terms). */
export function flatText(text: string): FlatText {
  const flat = text.replace(/\s+/g, ' ');
  return { flat, lower: flat.toLowerCase() };
}

/**
 * A short window (about `radius` words each side) around the first whole-word occurrence of
 * `term` in `text`, with the occurrence wrapped as `<hi>…</hi>`; undefined if the word is absent.
 */
export function highlight(text: FlatText, term: string, radius = 6): string | undefined {
  const match = findWord(text, term);
  if (match === undefined) return undefined;
  const { flat } = text;
  const before = flat.slice(0, match.index).split(' ');
  const after = flat.slice(match.index + match[0].length).split(' ');
  const head = before.slice(Math.max(0, before.length - radius - 1)).join(' ');
  const tail = after.slice(0, radius + 1).join(' ');
  return `${head}<hi>${match[0]}</hi>${tail}`.trim();
}
