/**
 * @module gates
 * Gates: the grammar, gates files, evaluation against a run (and its baseline), JUnit cases.
 */
export { checkGates, evaluateGates, formatFigure, gateTargets, GateResultSchema, type GateBaseline, type GateResult } from './evaluate.js';
export { GatesFileSchema, gateObjectText, parseGatesFile, type GateObject } from './gates-file.js';
export { compareOp, describeGate, GATE_OPERATORS, gateFigure, GateSchema, parseGate, type Gate, type GateOperator } from './grammar.js';
export { gateCaseName, renderGateTestcases, renderGateTestsuite } from './junit.js';
export { evaluateLoadGates, parseLoadGateFlag } from './load.js';
export type { ExtraFigures } from './grammar.js';
