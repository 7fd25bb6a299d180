/**
 * @module client/cut-utf8
 * The answer cap (`--max-answer-bytes`) of both answer paths: a streamed answer (collect.ts) and a
 * full one (full-response.ts) are cut by the same rule.
 */

/** The longest start of `text` within `max` UTF-8 bytes, cut at a character boundary. */
export function cutUtf8(text: string, max: number): string {
  if (text.length * 3 <= max || Buffer.byteLength(text, 'utf8') <= max) return text;
  let room = max;
  let end = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch, 'utf8');
    if (size > room) break;
    room -= size;
    end += ch.length;
  }
  return text.slice(0, end);
}
