/**
 * @module sim
 * The simulated chat service: faithful to the deployed service on the wire (docs/reference/wire-format.md), for
 * the demo, the tests and a user's dry runs. This is its public surface.
 */
export { startSimulator, type RunningSimulator, type SimulatorOptions } from './start.js';
export { createSimServer, type SimServer, type SimServerOptions, type SimStats } from './server.js';
export { SimConfigError, SimConfigSchema, parseSimConfig, type SimConfig, type SimConfigInput } from './config.js';
export { DEMO_TOKEN, SCOPES, defaultTokens, type Scope, type TokenEntry } from './auth.js';
export { loadCorpus, type Corpus } from './corpus/index.js';
export { SIM_JUDGE_MODEL } from '../api/sim-judge.js';
export { SimJudgeConfigSchema, type SimJudgeConfig, type SimJudgeConfigInput } from './judge/config.js';
export { DEFAULT_TOOLS, type Tool } from './chat/tools.js';
