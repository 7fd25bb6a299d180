/**
 * @module cli/connection
 * Where to send and with which credential: `--base-url` / CHATBENCH_BASE_URL and `--token` /
 * CHATBENCH_TOKEN / `--token-file`. The token is returned to the caller and never echoed.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from '../errors.js';
import type { Io } from './io.js';

export interface ConnectionFlags {
  'base-url'?: string | undefined;
  token?: string | undefined;
  'token-file'?: string | undefined;
}

/** Validates the base URL: http or https with a host; a trailing slash is dropped, no prefix is ever added. */
export function parseBaseUrl(text: string, source: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${source}: "${text}" is not a URL; give the scheme too, e.g. http://127.0.0.1:8080/api`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${source}: "${text}" must start with http:// or https://`);
  }
  if (url.search || url.hash) throw new UsageError(`${source}: "${text}" must not carry a query or fragment`);
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
  if (flags.token !== undefined) return nonEmpty(flags.token, '--token');
  if (flags['token-file'] !== undefined) {
    const path = resolve(io.cwd, flags['token-file']);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw new UsageError(`--token-file: cannot read ${flags['token-file']} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    return nonEmpty(text.trim(), `--token-file ${flags['token-file']}`);
  }
  const fromEnv = io.env.CHATBENCH_TOKEN;
  return fromEnv ? fromEnv.trim() : undefined;
}

function nonEmpty(token: string, source: string): string {
  if (token.trim() === '') throw new UsageError(`${source}: the token is empty`);
  if (/\s/.test(token.trim())) throw new UsageError(`${source}: the token contains white space`);
  return token.trim();
}
