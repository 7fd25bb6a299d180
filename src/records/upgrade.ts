/**
 * @module records/upgrade
 * Reads fields of older records and summaries under their new names, so runs written before a
 * rename still read whole: `tpot_ms` (a record's, a model's, a summary's latency key) is
 * `time_per_delta_ms` since issue 27 §6 — it was the time per stream delta, not per token.
 */
const RENAMED: readonly (readonly [string, string])[] = [['tpot_ms', 'time_per_delta_ms']];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The object with each old key moved to its new name (unless the new one is there); anything else as it is. */
export function renameOldKeys(value: unknown): unknown {
  if (!isObject(value) || !RENAMED.some(([old]) => Object.hasOwn(value, old))) return value;
  const copy: Record<string, unknown> = { ...value };
  for (const [old, now] of RENAMED) {
    if (!Object.hasOwn(copy, old)) continue;
    if (!Object.hasOwn(copy, now)) copy[now] = copy[old];
    delete copy[old];
  }
  return copy;
}

/** A results.jsonl line's JSON with its old field names (the record's and each model's) renamed. */
export function upgradeRecordJson(json: unknown): unknown {
  const record = renameOldKeys(json);
  if (!isObject(record) || !Array.isArray(record.models)) return record;
  return { ...record, models: record.models.map(renameOldKeys) };
}
