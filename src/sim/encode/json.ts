/**
 * @module sim/encode/json
 * JSON written byte for byte the way the deployed Python service writes it. Two styles:
 * - `dumps`: Python's `json.dumps` defaults, used for stream lines: `", "` and `": "` separators,
 *   everything outside printable ASCII escaped as lowercase `\uXXXX` (astral characters as surrogate
 *   pairs, DEL too), keys in insertion order.
 * - `dumpsResponse`: Starlette's JSONResponse, used for whole-body responses (ChatFullResponse, error
 *   bodies): compact `","` / `":"` separators and UTF-8 left unescaped (`ensure_ascii=False`).
 * JavaScript has one number type, so a float that Python would print as `2.0` must be marked with
 * `pyFloat`; unmarked integral numbers print as Python ints. Floats follow Python's repr (shortest
 * round-trip digits, exponent form below 1e-4 and from 1e16, two-digit exponents).
 */

/** A number Python holds as a float: integral values print with `.0`. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** Marks a number as a Python float (scores, seconds). */
export const pyFloat = (value: number): PyFloat => new PyFloat(value);

/**
 * JSON text already encoded (with the same style it will be embedded in), inserted verbatim: large
 * values that recur in many parts (a document list) are encoded once.
 */
export class PyRaw {
  constructor(readonly json: string) {}
}

/**
 * A JSON value as the encoder accepts it. `undefined` object values are skipped, as JSON.stringify
 * does. The encoder takes `unknown` so that API types (whose loose objects have unknown extras) pass
 * without casts; anything else (function, symbol, bigint, class instance other than PyFloat) throws.
 */
export type PyJson =
  null | boolean | number | string | PyFloat | readonly PyJson[] | { readonly [key: string]: PyJson | undefined };

interface Style {
  item: string;
  key: string;
  ascii: boolean;
}
const DUMPS: Style = { item: ', ', key: ': ', ascii: true };
const RESPONSE: Style = { item: ',', key: ':', ascii: false };

/** Python `json.dumps(value)` with its default arguments. */
export function dumps(value: unknown): string {
  return encode(value, DUMPS);
}

/** Starlette `JSONResponse` rendering: `json.dumps(value, ensure_ascii=False, separators=(",", ":"))`. */
export function dumpsResponse(value: unknown): string {
  return encode(value, RESPONSE);
}

function encode(value: unknown, style: Style): string {
  switch (typeof value) {
    case 'string':
      return encodeString(value, style.ascii);
    case 'number':
      return Number.isInteger(value) ? intRepr(value) : floatRepr(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'null';
    case 'object':
      break;
    default:
      throw new TypeError(`cannot encode a ${typeof value} as JSON`);
  }
  if (value === null) return 'null';
  if (value instanceof PyFloat) return floatRepr(value.value);
  if (value instanceof PyRaw) return value.json;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : style.item) + encode(value[i], style);
    return `${out}]`;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw new TypeError('cannot encode a class instance as JSON');
  let out = '{';
  let first = true;
  const record = value as Record<string, unknown>;
  for (const key in record) {
    const item = record[key];
    if (item === undefined) continue;
    out += (first ? '' : style.item) + encodeString(key, style.ascii) + style.key + encode(item, style);
    first = false;
  }
  return `${out}}`;
}

// JSON.stringify already escapes `"`, `\` and control characters exactly as Python does (\n, \t,
// \u001f ...) and lone surrogates as \udxxx; what remains for ensure_ascii is everything else
// outside space..tilde, one UTF-16 unit at a time (which yields surrogate pairs for astral text).
const NON_ASCII = /[^\x20-\x7e]/;
const NON_ASCII_ALL = /[^\x20-\x7e]/g;
const escapeUnit = (unit: string): string => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;

function encodeString(text: string, ascii: boolean): string {
  const json = JSON.stringify(text);
  return ascii && NON_ASCII.test(json) ? json.replace(NON_ASCII_ALL, escapeUnit) : json;
}

function intRepr(value: number): string {
  if (Number.isSafeInteger(value)) return String(value);
  return BigInt(value).toString(); // Python ints never use exponents
}

/** Python's float repr: `repr(0.1) == '0.1'`, `repr(1e-05) == '1e-05'`, `repr(1e16) == '1e+16'`. */
export function floatRepr(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa = '0', expText = '0'] = value.toExponential().split('e'); // shortest round-trip digits
  const exp = Number(expText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  const sign = negative ? '-' : '';
  if (exp < -4 || exp >= 16) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const expAbs = String(Math.abs(exp)).padStart(2, '0');
    return `${sign}${digits[0] ?? '0'}${frac}e${exp < 0 ? '-' : '+'}${expAbs}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const fracPart = digits.slice(exp + 1);
  return `${sign}${intPart}.${fracPart === '' ? '0' : fracPart}`;
}
