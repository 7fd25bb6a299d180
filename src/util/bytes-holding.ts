/**
 * @module util/bytes-holding
 * A byte a question by its integer (metrics/question-index), grown as the integers come: the
 * summary's questions (metrics/summarize) and the pass grid's (reports/pass-grid-data).
 */

/** `bytes` when `index` is inside it; otherwise a copy twice the length `index` needs. */
export function bytesHolding(bytes: Uint8Array<ArrayBuffer>, index: number): Uint8Array<ArrayBuffer> {
  if (index < bytes.length) return bytes;
  const grown = new Uint8Array(2 * (index + 1));
  grown.set(bytes);
  return grown;
}
