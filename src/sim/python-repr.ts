/**
 * @module sim/python-repr
 * Python's repr() of JSON-like values, for the deployed service's 422 message, which is the str()
 * of FastAPI's RequestValidationError: `{'type': 'missing', 'loc': ('body', 'message'), ...}`.
 */

/** A tuple (pydantic's `loc`): `('body', 'message')`, and `('body',)` for one element. */
export class PyTuple {
  constructor(readonly items: readonly unknown[]) {}
}

/** An exception instance as it appears in a pydantic error's ctx: `ValueError('...')`. */
export class PyException {
  constructor(
    readonly className: string,
    readonly message: string,
  ) {}
}

/** Python's repr of a str: single quotes unless the text has a ' and no ", escapes as CPython does. */
export function reprString(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

function reprNumber(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  return String(value);
}

/**
 * repr() of a value parsed from JSON (plus PyTuple and PyException). null/undefined → None,
 * booleans → True/False, arrays → lists, objects → dicts in key order.
 */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value === 'number') return reprNumber(value);
  if (typeof value === 'string') return reprString(value);
  if (value instanceof PyTuple) {
    const items = value.items.map(pyRepr);
    return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
  }
  if (value instanceof PyException) return `${value.className}(${reprString(value.message)})`;
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => `${reprString(key)}: ${pyRepr(item)}`);
    return `{${entries.join(', ')}}`;
  }
  return reprString(String(value));
}
