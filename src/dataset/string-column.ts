/**
 * @module dataset/string-column
 * Compact columns for a pass over a large dataset: strings packed in one UTF-8 buffer with their end
 * offsets, and typed arrays grown by doubling. A million ids cost some MB, not a million strings.
 */

/** Grows a typed array by doubling. */
export function grown(array: Uint32Array<ArrayBuffer>, needed: number): Uint32Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  const next = new Uint32Array(Math.max(needed, array.length * 2));
  next.set(array);
  return next;
}

/** Strings held as one UTF-8 buffer and their end offsets: a million short ids in some MB, not a million strings. */
export function createStringColumn() {
  let bytes = Buffer.allocUnsafe(64 * 1024);
  let ends = new Uint32Array(1024);
  let count = 0;
  let used = 0;
  return {
    add(text: string): void {
      const needed = used + Buffer.byteLength(text);
      if (needed > bytes.length) {
        const next = Buffer.allocUnsafe(Math.max(needed, bytes.length * 2));
        bytes.copy(next, 0, 0, used);
        bytes = next;
      }
      used += bytes.write(text, used);
      ends = grown(ends, count + 1);
      ends[count++] = used;
    },
    get: (at: number): string => bytes.toString('utf8', at === 0 ? 0 : ends[at - 1]!, ends[at]!),
  };
}

/** FNV-1a over the UTF-16 code units: a 32-bit hash of a string. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The line each id was first seen on, for the duplicate check of a pass: ids by their 32-bit hash
 * (a map of small numbers) and packed in a column, instead of a map of a million strings. Two ids
 * of one hash are told apart by their text; a later id whose hash an earlier, different id took is
 * kept by its text.
 */
export function createFirstLines() {
  const ids = createStringColumn();
  let lines = new Uint32Array(1024);
  let count = 0;
  const byHash = new Map<number, number>(); // hash → ordinal of the first id with it
  const collided = new Map<string, number>(); // id → line, for ids whose hash another id took
  return {
    /** The line `id` was first seen on; undefined (and `line` kept as its first) when it is new. */
    seen(id: string, line: number): number | undefined {
      const hash = hash32(id);
      const first = byHash.get(hash);
      if (first === undefined) {
        byHash.set(hash, count);
        ids.add(id);
        lines = grown(lines, count + 1);
        lines[count++] = line;
        return undefined;
      }
      if (ids.get(first) === id) return lines[first];
      const other = collided.get(id);
      if (other === undefined) collided.set(id, line);
      return other;
    },
  };
}
