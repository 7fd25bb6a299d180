/**
 * @module sim/encode
 * The simulator's own encoder (it never uses the client's decoder, so a bug cannot hide on both
 * ends): Python-style JSON and stream framing.
 */
export { PyFloat, PyRaw, dumps, dumpsResponse, floatRepr, pyFloat, type PyJson } from './json.js';
export { FRAMINGS, STREAM_CONTENT_TYPE, frameText, framePart, frameUnterminated, type Framing } from './frame.js';
