/**
 * @module gates
 * Gates: gates files, evaluation against a run (and its baseline), JUnit cases. The grammar is
 * src/figures/grammar (SLOs and pass rules share it).
 */
export { checkGates, evaluateGates, formatFigure, gateTargets, type GateBaseline } from './evaluate.js';
export { GateVerdictSchema, type GateVerdict } from '../figures/gate-verdict.js';
export { GatesFileSchema, gateObjectText, parseGatesFile, type GateObject } from './gates-file.js';
export { gateCaseName, gateJunitCases } from './junit.js';
export { evaluateLoadGates, parseLoadGateFlag } from './load.js';
