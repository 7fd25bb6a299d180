/**
 * Issue 23 §1, "every cap is a flag or config key, listed under Limits": for each cap on what
 * chatbench reads, the default the code applies, the default `--help` shows and the default
 * docs/limits.md gives must be one value. The code's constants are imported, the help is the CLI's
 * own output, the doc row is the table line naming the flag; a default changed in one place only
 * fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FETCH_CITED_TIMEOUT_MS } from '../../src/app/eval/run-eval.js';
import { BODY_CAP_OPTIONS } from '../../src/cli/body-cap-flags.js';
import { parseBytes } from '../../src/cli/bytes.js';
import { parseDuration } from '../../src/cli/duration.js';
import { main } from '../../src/cli/main.js';
import { checksLimits } from '../../src/cli/quality-flags.js';
import {
  DEEP_RESEARCH_MAX_DURATION_MS,
  DEEP_RESEARCH_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_DURATION_MS,
  DEFAULT_MAX_ERROR_BODY_BYTES,
  DEFAULT_TIMEOUT_MS,
} from '../../src/client/chat-client.js';
import { DEFAULT_MAX_ANSWER_BYTES } from '../../src/client/collect.js';
import { DEFAULT_JSON_TIMEOUT_MS } from '../../src/client/json-request.js';
import { DEFAULT_MAX_VERSION_BODY_BYTES, DEFAULT_VERSION_TIMEOUT_MS } from '../../src/client/version-client.js';
import { DEFAULT_MAX_LINE_BYTES } from '../../src/client/wire/index.js';
import { DEFAULT_MAX_REPLY_BYTES } from '../../src/judge/client.js';
import { LIMITS } from '../../src/util/limits.js';
import { createFakeIo } from '../helpers/fake-io.js';

const LIMITS_DOC = readFileSync(new URL('../../docs/limits.md', import.meta.url), 'utf8');

async function help(command: string): Promise<string> {
  const fake = createFakeIo();
  expect(await main([command, '--help'], fake.io)).toBe(0);
  return fake.stdout().replace(/\s+/g, ' ');
}

/** The docs/limits.md table row that names `flag` and gives a default (a flag's maximum is on another row). */
function docRow(flag: string, startsWith = '|'): string {
  const row = LIMITS_DOC.split('\n').find(
    (l) => l.startsWith(startsWith) && l.includes(`\`${flag}\``) && /\| default /.test(l),
  );
  if (row === undefined) throw new Error(`docs/limits.md: no row of the Limits table names ${flag} with its default`);
  return row;
}

const MIB = 1024 * 1024;
/** How docs/limits.md writes a size: `64 MiB`, `64 KiB`. */
const docBytes = (bytes: number) => (bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes / 1024} KiB`);
/** How docs/limits.md writes a duration: `180 s`, `15 min`. */
const docMs = (ms: number) => (ms >= 15 * 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

/** The default `--help` shows for `flag`: yargs' `[default: X]`, or the describe's "default X". */
function helpDefault(text: string, flag: string): string {
  const at = text.indexOf(`--${flag} `);
  expect(at, `--${flag} in --help`).toBeGreaterThanOrEqual(0);
  const next = text.indexOf(' --', at + flag.length + 3);
  const entry = text.slice(at, next === -1 ? undefined : next);
  const value = /\[default: ([^\]]+)\]/.exec(entry)?.[1] ?? /[Dd]efault (\S+?)[,;. ]/.exec(entry)?.[1];
  if (value === undefined) throw new Error(`--${flag}: --help gives no default: ${entry}`);
  return value;
}

interface Cap {
  readonly flag: string;
  readonly command: 'eval' | 'load';
  readonly kind: 'bytes' | 'ms';
  /** What the code applies when the flag is not given (undefined: the option's own default is the code's). */
  readonly code?: number;
}

const checks = checksLimits({ 'checks-timeout': '2s' });
const CAPS: readonly Cap[] = [
  { flag: 'timeout', command: 'eval', kind: 'ms', code: DEFAULT_TIMEOUT_MS },
  { flag: 'max-duration', command: 'eval', kind: 'ms', code: DEFAULT_MAX_DURATION_MS },
  { flag: 'max-body-bytes', command: 'eval', kind: 'bytes', code: DEFAULT_MAX_BODY_BYTES },
  { flag: 'max-body-bytes', command: 'load', kind: 'bytes', code: DEFAULT_MAX_BODY_BYTES },
  { flag: 'max-line-bytes', command: 'eval', kind: 'bytes', code: DEFAULT_MAX_LINE_BYTES },
  { flag: 'max-line-bytes', command: 'load', kind: 'bytes', code: DEFAULT_MAX_LINE_BYTES },
  { flag: 'timeout', command: 'load', kind: 'ms', code: DEFAULT_TIMEOUT_MS },
  { flag: 'max-duration', command: 'load', kind: 'ms', code: DEFAULT_MAX_DURATION_MS },
  { flag: 'max-error-body-bytes', command: 'eval', kind: 'bytes', code: DEFAULT_MAX_ERROR_BODY_BYTES },
  { flag: 'max-error-body-bytes', command: 'load', kind: 'bytes', code: DEFAULT_MAX_ERROR_BODY_BYTES },
  { flag: 'max-answer-bytes', command: 'eval', kind: 'bytes', code: DEFAULT_MAX_ANSWER_BYTES },
  { flag: 'max-version-bytes', command: 'eval', kind: 'bytes', code: DEFAULT_MAX_VERSION_BODY_BYTES },
  { flag: 'version-timeout', command: 'eval', kind: 'ms', code: DEFAULT_VERSION_TIMEOUT_MS },
  { flag: 'judge-max-reply-bytes', command: 'eval', kind: 'bytes', code: DEFAULT_MAX_REPLY_BYTES },
  { flag: 'checks-max-heap-bytes', command: 'eval', kind: 'bytes', code: checks.heapMb * MIB },
  { flag: 'checks-total-timeout', command: 'eval', kind: 'ms', code: checks.totalMs },
  { flag: 'max-run-line-bytes', command: 'eval', kind: 'bytes', code: LIMITS.runFileLineBytes },
  { flag: 'judge-timeout', command: 'eval', kind: 'ms' },
  { flag: 'checks-timeout', command: 'eval', kind: 'ms' },
];

describe('every cap: the code, --help and docs/limits.md give one default', () => {
  const helps = new Map<string, Promise<string>>();
  const helpOf = (command: string) => {
    if (!helps.has(command)) helps.set(command, help(command));
    return helps.get(command) as Promise<string>;
  };

  it.each(CAPS.map((cap) => [`${cap.command} --${cap.flag}`, cap] as const))(
    '%s',
    async (_name, { flag, command, kind, code }) => {
      const shown = helpDefault(await helpOf(command), flag);
      const value = kind === 'bytes' ? parseBytes(shown, flag) : parseDuration(shown, flag);
      if (code !== undefined) expect(value).toBe(code);
      expect(docRow(`--${flag}`)).toContain(kind === 'bytes' ? docBytes(value) : docMs(value));
    },
  );

  it("the deep-research defaults, the JSON calls' whole-call default and the caps the CLI takes from one declaration", () => {
    // Project instructions fall back to the JSON calls' own default, --fetch-cited to its own, a load's open-urls call to the stream's.
    const jsonCalls = docRow('--timeout', '| each whole call of project instructions');
    expect(jsonCalls).toContain(
      `default ${docMs(DEFAULT_JSON_TIMEOUT_MS)}, ${docMs(FETCH_CITED_TIMEOUT_MS)} and ${docMs(DEFAULT_TIMEOUT_MS)} |`,
    );
    expect(docRow('--timeout')).toContain(`(${docMs(DEEP_RESEARCH_TIMEOUT_MS)} deep research)`);
    expect(docRow('--max-duration')).toContain(`(${docMs(DEEP_RESEARCH_MAX_DURATION_MS)} deep research)`);
    expect(parseBytes(BODY_CAP_OPTIONS['max-body-bytes'].default, 'x')).toBe(DEFAULT_MAX_BODY_BYTES);
    expect(parseBytes(BODY_CAP_OPTIONS['max-line-bytes'].default, 'x')).toBe(DEFAULT_MAX_LINE_BYTES);
    expect(parseBytes(BODY_CAP_OPTIONS['max-error-body-bytes'].default, 'x')).toBe(DEFAULT_MAX_ERROR_BODY_BYTES);
  });
});
