/**
 * @module verdict
 * One decision layer: the verdict of a run or a comparison (verdict/verdict) and how each output
 * prints it (verdict/render). Depends on figures and errors only.
 */
export * from './verdict.js';
export * from './render.js';
export * from './load.js';
