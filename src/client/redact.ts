/**
 * @module client/redact
 * A request's secrets taken out of what the server said back. A server may echo the token or
 * `mcp_headers` values (a pydantic 422 echoes its `input`, a proxy may echo headers); those texts
 * would reach results.jsonl, reports and messages.
 */
import type { SendMessageRequest } from '../api/send-message.js';
import type { Exchange } from './exchange.js';
import { holdsAnyMarker, markerOf, type Marker } from './marker-search.js';

export const REDACTED = '[redacted]';
/** Shorter values are not redacted: replacing every "1" or "on" would garble messages, not protect. */
const MIN_SECRET_CHARS = 4;
/**
 * The shortest cut of a secret that is hidden too: a prefix or suffix of at least this many
 * characters, such as a message truncation leaves (`Zq9xTOKsecre…`). Shorter cuts say too little to
 * matter and would match ordinary text.
 */
export const MIN_CUT_CHARS = 8;

/**
 * The strings to hide for `body`: every mcp_headers value, and for a value like `Bearer abc` its
 * credential part alone too; plus the token and any `extra` secrets of the run (every token of a
 * token file, the judge's key). Longest first, so a value goes before its own part.
 */
export function secretsOf(
  body: Pick<SendMessageRequest, 'mcp_headers'>,
  token = '',
  extra: readonly string[] = [],
): string[] {
  const values = Object.values(body.mcp_headers ?? {});
  const parts = values.flatMap((v) => /^\S+\s+(\S+)$/.exec(v.trim())?.[1] ?? []);
  return [...new Set([token, ...extra, ...values, ...parts])]
    .filter((s) => s.length >= MIN_SECRET_CHARS)
    .sort((a, b) => b.length - a.length);
}

/**
 * Every secret of a run, for redactText/redactDeep: its tokens (`--token`, every line of
 * `load --token-file`), every `mcp_headers` value (and its credential part), the judge's key.
 */
export function runSecrets(o: {
  tokens?: readonly (string | undefined)[];
  mcpHeaders?: Readonly<Record<string, string>> | undefined;
  judgeToken?: string | undefined;
}): string[] {
  const tokens = [...(o.tokens ?? []), o.judgeToken].filter((t): t is string => t !== undefined && t !== '');
  return secretsOf({ mcp_headers: o.mcpHeaders ?? null }, '', tokens);
}

/**
 * `text` with every secret replaced by `[redacted]`, and then every cut of one (a prefix or a suffix
 * of MIN_CUT_CHARS characters or more, wherever it stands: a truncated message, an answer cut at its
 * cap, a service that echoed part of a header); null stays null. A text holding no secret is
 * returned as it is (one search per secret and end).
 */
export function redactText<T extends string | null>(text: T, secrets: readonly string[]): T {
  if (text === null || !holdsAnyMarker(text, markersOf(secrets).markers)) return text;
  let out: string = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  // A value with a space (`Bearer abc…`) is cut-checked through its credential part, never by its
  // scheme: `Bearer a` is ordinary text.
  for (const secret of secrets) if (secret.length > MIN_CUT_CHARS && !/\s/.test(secret)) out = redactCuts(out, secret);
  return out as T;
}

/**
 * What a text must hold for redactText to change it: a whole secret that is never cut-checked, or
 * the first or last MIN_CUT_CHARS characters of one that is (a whole secret holds both). Every
 * string of every exchange is looked at, almost none holds one: a few searches per string
 * (client/marker-search.ts), no slicing, no regex. Computed once per secrets list (a run's lists
 * live as long as the run).
 */
function markersOf(secrets: readonly string[]): Screen {
  let screen = markerCache.get(secrets);
  if (screen === undefined) {
    const set = new Set<string>();
    for (const secret of secrets) {
      if (secret.length > MIN_CUT_CHARS && !/\s/.test(secret)) {
        set.add(secret.slice(0, MIN_CUT_CHARS));
        set.add(secret.slice(-MIN_CUT_CHARS));
      } else set.add(secret);
    }
    screen = { markers: [...set].map(markerOf), cleanKeys: new Set() };
    markerCache.set(secrets, screen);
  }
  return screen;
}
/**
 * A secrets list's markers, and the object keys already found to hold none of them. Every exchange
 * has the same forty-odd keys: looking each up costs a fraction of searching it for every marker
 * (a third of a clean exchange's walk). A key's verdict depends on the key and the markers only, so
 * the cache answers what the search would; it stops growing at MAX_CLEAN_KEYS (a hostile service
 * may name packet types without end), after which the other keys are searched each time.
 */
interface Screen {
  readonly markers: readonly Marker[];
  readonly cleanKeys: Set<string>;
}
const markerCache = new WeakMap<readonly string[], Screen>();
const MAX_CLEAN_KEYS = 4096;

/** Whether the object key `key` holds a marker, remembering the keys that do not. */
function keyHoldsMarker(key: string, screen: Screen): boolean {
  if (screen.cleanKeys.has(key)) return false;
  if (holdsAnyMarker(key, screen.markers)) return true;
  if (screen.cleanKeys.size < MAX_CLEAN_KEYS) screen.cleanKeys.add(key);
  return false;
}

/** `text` with every prefix and suffix of `secret` (≥ MIN_CUT_CHARS characters) replaced. */
function redactCuts(text: string, secret: string): string {
  const head = secret.slice(0, MIN_CUT_CHARS);
  const tail = secret.slice(-MIN_CUT_CHARS);
  if (!text.includes(head) && !text.includes(tail)) return text;
  // Spans to hide, found on the text as it is, then replaced from the end.
  const spans: Array<[number, number]> = [];
  for (let at = text.indexOf(head); at !== -1; at = text.indexOf(head, at + 1)) {
    let n = MIN_CUT_CHARS;
    while (n < secret.length && at + n < text.length && text[at + n] === secret[n]) n++;
    spans.push([at, at + n]);
  }
  for (let at = text.indexOf(tail); at !== -1; at = text.indexOf(tail, at + 1)) {
    const end = at + MIN_CUT_CHARS;
    let n = MIN_CUT_CHARS;
    while (n < secret.length && end - n - 1 >= 0 && text[end - n - 1] === secret[secret.length - n - 1]) n++;
    spans.push([end - n, end]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  let out = '';
  let from = 0;
  for (const [start, end] of spans) {
    if (end <= from) continue;
    out += text.slice(from, Math.max(from, start)) + (start >= from ? REDACTED : '');
    from = end;
  }
  return out + text.slice(from);
}

/**
 * `value` with every secret replaced in every string it holds, at any depth, object keys included
 * (a service names packet types, models, scopes, documents: any of them may echo a credential).
 * Parts that hold no secret are returned as they are, so a clean exchange costs one walk.
 */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  return walk(value, secrets, markersOf(secrets)) as T;
}

/**
 * Every request's exchange is walked, and almost none holds a secret: look first without building
 * anything (no key list, no callback), and copy only a value that has one. The copies are functions
 * of their own: a closure in walk itself made V8 allocate walk's context on every call (56 bytes a
 * call, one call per key: ~2.9 KB a full answer's exchange; docs/benchmarks-log.md, "Session 40").
 */
function walk(value: unknown, secrets: readonly string[], screen: Screen): unknown {
  if (typeof value === 'string') return holdsAnyMarker(value, screen.markers) ? redactText(value, secrets) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (walk(item, secrets, screen) !== item) return copyArray(value, secrets, screen);
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const field = record[key];
    if (keyHoldsMarker(key, screen) || walk(field, secrets, screen) !== field)
      return copyRecord(record, secrets, screen);
  }
  return value;
}

/** `value` with each item walked: an array that holds a secret. */
function copyArray(value: readonly unknown[], secrets: readonly string[], screen: Screen): unknown[] {
  return value.map((each) => walk(each, secrets, screen));
}

/** `record` with each key redacted and each value walked: an object that holds a secret. */
function copyRecord(record: Record<string, unknown>, secrets: readonly string[], screen: Screen): object {
  return Object.fromEntries(Object.keys(record).map((k) => [redactText(k, secrets), walk(record[k], secrets, screen)]));
}

/**
 * A quick look at a serialised text (a results.jsonl line) for anything redactText would change: a
 * whole secret, or the first or last MIN_CUT_CHARS characters of one (every cut redactText hides
 * holds one of them). false: the text holds none, and the record needs no walk. A secret whose
 * markers JSON would escape (quotes, backslashes, control or surrogate characters) makes every text
 * suspect, so such a run always walks.
 */
export function createSecretScreen(secrets: readonly string[]): (text: string) => boolean {
  const markers = new Set<string>();
  let always = false;
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_CHARS) continue;
    const cuttable = secret.length > MIN_CUT_CHARS && !/\s/.test(secret);
    for (const marker of cuttable ? [secret.slice(0, MIN_CUT_CHARS), secret.slice(-MIN_CUT_CHARS)] : [secret]) {
      if (JSON.stringify(marker) !== `"${marker}"` || /[\uD800-\uDFFF]/.test(marker)) always = true;
      markers.add(marker);
    }
  }
  if (always) return () => true;
  const list = [...markers].map(markerOf);
  return (text) => holdsAnyMarker(text, list); // a loop: a callback would be a closure a line
}

/**
 * The exchange with `secrets` taken out of everything the server said: the answer, codes and
 * messages, the 429's scope and reset time, model names, document ids, packet types, the error body.
 * Applied to every exchange the client layer hands over (chat, open-urls), so no record, report,
 * message or summary table can carry what the service echoed.
 */
export function redactExchange(exchange: Exchange, secrets: readonly string[]): Exchange {
  return redactDeep(exchange, secrets);
}

/** `https://user:pass@host/api` → `https://host/api`, for messages. */
export function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href.replace(/\/+$/, '');
}
