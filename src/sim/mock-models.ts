/**
 * @module sim/mock-models
 * The service's load-test kit names its mock LLM's behaviour in the model name (loadtest/mock_llm/
 * app.py in onyx-dot-app/onyx: `_KNOB_RE = -(ttft|itl|len|tools|agents|maxctx)(\d+)`), e.g.
 * `mock-ttft500-itl20-len400-tools1`. Sent as `llm_override.model_version`, such a name selects a
 * profile with those timings: time to the first token `ttft` ms, `itl` ms between tokens (both
 * exact, no spread), an answer of `len` tokens, and `tools` retrieval tool calls before answering
 * (none without the knob: the mock answers in plain text unless told to call tools). The mock's
 * own defaults apply to a knob left out (`MOCK_TTFT_MS` 300, `MOCK_ITL_MS` 15, `MOCK_LEN_TOKENS`
 * 150). `agents` and `maxctx` are read but change nothing here: the simulator's deep research has
 * its own two agents, and it has no context window to overflow.
 */
import type { ModelProfile } from './model-profile.js';

const MOCK_NAME = /^mock(?:-[a-z]+\d*)*$/;
const KNOB = /-(ttft|itl|len|tools|agents|maxctx)(\d+)/g;
const DEFAULTS = { ttft: 300, itl: 15, len: 150, tools: 0 };

/** Exactly `ms` every time (a log-normal needs a positive median: 0 becomes a microsecond). */
const exactly = (ms: number) => ({ median: Math.max(ms, 0.001), p99: Math.max(ms, 0.001) });

/** The profile a kit mock model name asks for, laid over `base`; undefined for any other name. */
export function mockModelProfile(name: string, base: ModelProfile): ModelProfile | undefined {
  if (!MOCK_NAME.test(name)) return undefined;
  const knobs: Record<string, number> = { ...DEFAULTS };
  for (const [, knob, value] of name.matchAll(KNOB)) if (knob !== undefined) knobs[knob] = Number(value);
  return {
    ...base,
    model_name: name,
    provider: null,
    first_token_ms: exactly(knobs.ttft ?? DEFAULTS.ttft),
    token_ms: exactly(knobs.itl ?? DEFAULTS.itl),
    answer_tokens: Math.max(1, knobs.len ?? DEFAULTS.len),
    tool_calls: knobs.tools ?? DEFAULTS.tools,
    reasoning: false,
    error_rate: 0,
  };
}
