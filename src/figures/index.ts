/**
 * @module figures
 * The ground the others stand on: the catalogue of figures (names, kinds, which way is good) and the
 * grammar of a condition on a figure (gates, SLOs). Depends only on records.
 */
export * from './catalogue.js';
export {
  compareOp,
  describeGate,
  GATE_OPERATORS,
  gateFigure,
  GateSchema,
  parseGate,
  type ExtraFigures,
  type Gate,
  type GateOperator,
} from './grammar.js';
export * from './min-samples.js';
