/**
 * @module sim/llm
 * The mock LLM: an OpenAI-compatible chat completions server whose timing and tool calls come from
 * the model name, to put behind a real deployment so that a load test measures the application alone.
 */
export { DEFAULT_KNOBS, knobsOf, type LlmKnobs } from './knobs.js';
export {
  createMockLlm,
  startMockLlm,
  type MockLlm,
  type MockLlmOptions,
  type MockLlmStats,
  type RunningMockLlm,
} from './server.js';
