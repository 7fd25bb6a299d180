/**
 * @module client/body-text
 * A buffered response body (a full answer, an error body) as text, decoded as its chunks come: a
 * chunk is not kept as bytes (undici may reuse its memory, and a copy per chunk was an ArrayBuffer
 * freed only by a full collection once it outlived a scavenge; client/chat-client.ts).
 *
 * A chunk that ends on a character boundary, with nothing held from the one before, is decoded by
 * `Buffer#toString` (V8's decoder: ~1 µs for a 12 KB answer), not by a streaming `TextDecoder`
 * (ICU's converter: ~10 µs, and one converter per request). From the first chunk that ends inside
 * a character on, the rest goes through a streaming `TextDecoder`, which holds the character's first
 * bytes for the next chunk. Both decoders keep a BOM and put U+FFFD for each maximal invalid
 * subsequence (the WHATWG decoder), so the text does not depend on how the body was cut
 * (body-text.test.ts cuts at every byte).
 */

export interface BodyText {
  /** Decodes the next chunk's bytes. */
  push(bytes: Buffer): void;
  /** The whole text so far; a character cut by the end is U+FFFD. Further pushes append to it. */
  text(): string;
}

export function createBodyText(): BodyText {
  let parts: string[] = [];
  let decoder: InstanceType<typeof TextDecoder> | undefined;
  return {
    push(bytes) {
      if (decoder === undefined && endsOnBoundary(bytes)) parts.push(bytes.toString('utf8'));
      else parts.push((decoder ??= new TextDecoder('utf-8', { ignoreBOM: true })).decode(bytes, { stream: true }));
    },
    text() {
      if (decoder !== undefined) {
        parts.push(decoder.decode());
        decoder = undefined; // flushed: a later push starts afresh, as the decoder itself would
      }
      const whole = parts.length === 1 ? parts[0]! : parts.join('');
      parts = [whole];
      return whole;
    },
  };
}

/**
 * Whether a streaming decoder would hold none of these bytes back: the last ones are not the start
 * of a character that the next chunk could complete. A lead byte within the last three whose
 * sequence runs past the end answers no; anything else (ASCII, a complete character, bytes that
 * can start no character) yes. When unsure it answers no, and the streaming decoder decides.
 */
export function endsOnBoundary(bytes: Uint8Array): boolean {
  const end = bytes.length;
  for (let i = end - 1; i >= 0 && i >= end - 3; i--) {
    const b = bytes[i]!;
    if (b < 0x80) return true; // ASCII: nothing after it can be pending
    if (b < 0xc0) continue; // a continuation byte: look further back for its lead
    const length = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
    return i + length <= end;
  }
  return true; // empty, or three continuation bytes: nothing that a later byte could complete
}
