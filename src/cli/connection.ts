/**
 * @module cli/connection
 * Where to send and with which credential: `--base-url` / CHATBENCH_BASE_URL and `--token` /
 * CHATBENCH_TOKEN / `--token-file`. The token is returned to the caller and never echoed.
 */
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { formatBytes, LIMITS } from '../util/limits.js';
import { FileTooLargeError, readCappedSync } from '../util/read-capped.js';
import type { Io } from './io.js';

export interface ConnectionFlags {
  'base-url'?: string | undefined;
  token?: string | undefined;
  'token-file'?: string | undefined;
}

/**
 * `text` with whatever stands before the last `@` of its authority shown as `***`, for messages:
 * works on text that is not a valid URL too (a bad port, a password holding a slash), hiding more
 * than the credentials rather than less.
 */
export function hideUrlCredentials(text: string): string {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text)?.[0] ?? '';
  const rest = text.slice(scheme.length);
  const at = rest.lastIndexOf('@');
  return at === -1 ? text : `${scheme}***${rest.slice(at)}`;
}

/**
 * Validates the base URL: http or https with a host; a trailing slash is dropped, no prefix is ever
 * added. A `user:password` is dropped: chatbench authenticates with the bearer token, sends the
 * URL's origin only, and must never print a password (messages show the URL without it).
 */
export function parseBaseUrl(text: string, source: string): string {
  const shown = hideUrlCredentials(text);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${source}: "${shown}" is not a URL; give the scheme too, e.g. http://127.0.0.1:8080/api`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${source}: "${shown}" must start with http:// or https://`);
  }
  if (url.search || url.hash) throw new UsageError(`${source}: "${shown}" must not carry a query or fragment`);
  url.username = '';
  url.password = '';
  return url.href.replace(/\/+$/, '');
}

export function resolveBaseUrl(flags: ConnectionFlags, io: Io): string | undefined {
  if (flags['base-url'] !== undefined) return parseBaseUrl(flags['base-url'], '--base-url');
  const fromEnv = io.env.CHATBENCH_BASE_URL;
  return fromEnv ? parseBaseUrl(fromEnv, 'CHATBENCH_BASE_URL') : undefined;
}

/** Flag, then token file, then CHATBENCH_TOKEN. Giving both the flag and the file is a usage error. */
export function resolveToken(flags: ConnectionFlags, io: Io): string | undefined {
  if (flags.token !== undefined && flags['token-file'] !== undefined) {
    throw new UsageError('--token and --token-file conflict: give one');
  }
  if (flags.token !== undefined) return checkToken(flags.token, '--token');
  if (flags['token-file'] !== undefined)
    return checkToken(
      oneLine(readTokenFile(flags['token-file'], io.cwd), `--token-file ${flags['token-file']}`),
      `--token-file ${flags['token-file']}`,
    );
  const fromEnv = io.env.CHATBENCH_TOKEN;
  return fromEnv ? checkToken(noControl(fromEnv, 'CHATBENCH_TOKEN'), 'CHATBENCH_TOKEN') : undefined;
}

/**
 * A token file's text, read no further than LIMITS.tokenFileBytes: `--token-file /dev/zero` (or a
 * file of gigabytes) is refused at once instead of read for ever.
 */
export function readTokenFile(file: string, cwd: string, flag = '--token-file'): string {
  try {
    return readCappedSync(resolve(cwd, file), LIMITS.tokenFileBytes).toString('utf8');
  } catch (error) {
    if (error instanceof FileTooLargeError) {
      throw new UsageError(
        `${flag} ${file}: ${error.size === null ? 'more than' : `${formatBytes(error.size)}, over`} the ${formatBytes(LIMITS.tokenFileBytes)} limit of a token file`,
      );
    }
    throw new UsageError(`${flag}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** `text` when it holds no control character (CR, LF, NUL, ESC, …); else a UsageError naming `source`, never the text. */
export function noControl(text: string, source: string): string {
  const bad = [...text].findIndex((c) => c < ' ' || c === '\x7f');
  if (bad !== -1) {
    const code = text.codePointAt(bad) ?? 0;
    throw new UsageError(
      `${source}: the secret holds a control character (U+${code.toString(16).toUpperCase().padStart(4, '0')} at character ${bad + 1}); a header value cannot carry one`,
    );
  }
  return text;
}

/** A secret file's text: its one line, a final line ending (LF or CR LF) allowed; any other control character refused. */
export function oneLine(text: string, source: string): string {
  return noControl(text.replace(/\r?\n$/, ''), source);
}

/**
 * The token, trimmed, when it can go into an Authorization header: not empty, no white space, only
 * printable ASCII. A control character (a stray escape, a NUL from a binary file) would make the HTTP
 * client refuse every request (recorded as `network`); it is refused here instead, naming where it is,
 * never the token.
 */
export function checkToken(token: string, source: string): string {
  const trimmed = token.trim();
  if (trimmed === '') throw new UsageError(`${source}: the token is empty`);
  if (/\s/.test(trimmed)) throw new UsageError(`${source}: the token contains white space`);
  const bad = [...trimmed].findIndex((c) => c < '!' || c > '~');
  if (bad !== -1) {
    const code = trimmed.codePointAt(bad) ?? 0;
    const what = code < 0x20 || code === 0x7f ? 'a control character' : 'a character outside printable ASCII';
    throw new UsageError(
      `${source}: the token holds ${what} (U+${code.toString(16).toUpperCase().padStart(4, '0')} at character ${bad + 1}); a token is printable ASCII`,
    );
  }
  return trimmed;
}
