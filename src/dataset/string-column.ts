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
 * The line each id was first seen on, for the duplicate check of a pass: ids packed in a column and
 * found by their 32-bit hash in an open-addressing table of typed arrays (linear probing, at most
 * half full), instead of a Map: a Map of a million entries costs about 38 MB and leaves its old
 * tables behind as it grows; this table costs 4 bytes a slot and 4 bytes an id for its hash. Ids of
 * one hash are told apart by their text.
 */
export function createFirstLines() {
  const ids = createStringColumn();
  let lines = new Uint32Array(1024);
  let hashes = new Uint32Array(1024);
  let slots = new Uint32Array(2048); // ordinal + 1 of the id in each slot; 0: empty
  let count = 0;
  const place = (table: Uint32Array, ordinal: number): void => {
    const mask = table.length - 1;
    let at = hashes[ordinal]! & mask;
    while (table[at] !== 0) at = (at + 1) & mask;
    table[at] = ordinal + 1;
  };
  return {
    /** The line `id` was first seen on; undefined (and `line` kept as its first) when it is new. */
    seen(id: string, line: number): number | undefined {
      const hash = hash32(id);
      const mask = slots.length - 1;
      let at = hash & mask;
      for (let held = slots[at]!; held !== 0; held = slots[(at = (at + 1) & mask)]!)
        if (hashes[held - 1] === hash && ids.get(held - 1) === id) return lines[held - 1];
      ids.add(id);
      [lines, hashes] = [grown(lines, count + 1), grown(hashes, count + 1)];
      lines[count] = line;
      hashes[count] = hash;
      slots[at] = count + 1;
      count += 1;
      if (count * 2 > slots.length) {
        slots = new Uint32Array(slots.length * 2);
        for (let ordinal = 0; ordinal < count; ordinal += 1) place(slots, ordinal);
      }
      return undefined;
    },
  };
}
