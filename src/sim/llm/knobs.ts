/**
 * @module sim/llm/knobs
 * How the mock LLM behaves, read from the model name the service passes through verbatim, with
 * the same knobs as the service's own load-test kit (`loadtest/mock_llm/app.py` in
 * onyx-dot-app/onyx): `mock-ttft500-itl20-len400-tools1` waits 500 ms for the first token, then
 * 20 ms between tokens, answers 400 tokens and calls one retrieval tool on the first "auto" cycle.
 * A knob the name does not carry takes the server's default (`chatbench mock-llm --ttft-ms ...`).
 */

export interface LlmKnobs {
  /** Time to the first token (to the whole answer's first byte when not streamed), ms. */
  readonly ttftMs: number;
  /** Between two tokens, ms. */
  readonly itlMs: number;
  /** Answer length in tokens (one filler word each). */
  readonly tokens: number;
  /** Retrieval tools called in parallel on an "auto" cycle without a tool result yet (0: none). */
  readonly autoTools: number;
  /** Research agents spawned per deep-research orchestrator cycle (≥ 1). */
  readonly agents: number;
  /** > 0: prompts over this many estimated tokens are refused as a provider's context-window error. */
  readonly maxContextTokens: number;
}

/** The kit's defaults (its MOCK_TTFT_MS, MOCK_ITL_MS, MOCK_LEN_TOKENS). */
export const DEFAULT_KNOBS: LlmKnobs = {
  ttftMs: 300,
  itlMs: 15,
  tokens: 150,
  autoTools: 0,
  agents: 1,
  maxContextTokens: 0,
};

const KNOB = /-(ttft|itl|len|tools|agents|maxctx)(\d+)/g;

/** The knobs of `model` over `defaults`; a knob given twice takes its last value, as in the kit. */
export function knobsOf(model: string, defaults: LlmKnobs = DEFAULT_KNOBS): LlmKnobs {
  const knobs = { ...defaults };
  for (const [, name, digits] of model.matchAll(KNOB)) {
    const value = Number(digits);
    if (name === 'ttft') knobs.ttftMs = value;
    else if (name === 'itl') knobs.itlMs = value;
    else if (name === 'len') knobs.tokens = value;
    else if (name === 'tools') knobs.autoTools = value;
    else if (name === 'agents') knobs.agents = Math.max(1, value);
    else knobs.maxContextTokens = value;
  }
  return knobs;
}
