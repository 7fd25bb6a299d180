/**
 * Starts a simulator on 127.0.0.1:0 for one test and closes it when the test finishes
 * (onTestFinished: every connection dropped, then the server closed). The shipped corpus is
 * loaded once per test file. `call` sends one request over real HTTP and reads the whole body.
 */
import { request } from 'undici';
import { onTestFinished } from 'vitest';
import type { Corpus, RunningSimulator, SimulatorOptions } from '../../src/sim/index.js';
import { loadCorpus, startSimulator } from '../../src/sim/index.js';

let corpus: Promise<Corpus> | undefined;

/** The default tokens' values, by role. */
export const TOKENS = {
  demo: 'onyx_pat_chatbench_demo',
  searchOnly: 'onyx_pat_chatbench_search_only',
  chatOnly: 'onyx_pat_chatbench_chat_only',
  secondUser: 'onyx_pat_chatbench_second_user',
} as const;

/**
 * A simulator for the current test; chat delays default to 1/50 of real time. A concurrent test
 * passes its context's `onTestFinished` (vitest's global one attaches to whichever test started last).
 */
export async function startSim(
  options: SimulatorOptions = {},
  onFinished: typeof onTestFinished = onTestFinished,
): Promise<RunningSimulator> {
  corpus ??= loadCorpus();
  const config = options.config ?? {};
  const sim = await startSimulator({
    ...options,
    config: { ...config, chat: { time_scale: 0.02, ...config.chat } },
    corpus: options.corpus ?? (await corpus),
  });
  onFinished(() => sim.close());
  return sim;
}

export interface CallOptions {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly token?: string | undefined;
  /** Sent as JSON; a string is sent as it is (for malformed bodies). */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

export interface CallResult {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
}

/** One request to `{baseUrl}{path}`; POST when a body is given, else GET. */
export async function call(sim: RunningSimulator, path: string, options: CallOptions = {}): Promise<CallResult> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  const response = await request(`${sim.baseUrl}${path}`, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
      ...options.headers,
    },
    body,
  });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, text, json };
}
