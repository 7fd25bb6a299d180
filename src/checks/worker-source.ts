/**
 * @module checks/worker-source
 * The code of the worker thread that runs the user's checks, as text (`new Worker(source, { eval:
 * true })`): loads the module, reports its exported functions, then calls one check per message and
 * replies with a clone-safe form of what it returned, or the message of what it threw. Kept as text
 * so that it needs no build step and no loader of its own.
 */
export const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { pathToFileURL } = require('node:url');
const describe = (e) => (e instanceof Error ? (e.name && e.name !== 'Error' ? e.name + ': ' : '') + e.message : 'threw ' + String(e));
const primitive = (x) => (x === null || x === undefined || ['boolean', 'number', 'string'].includes(typeof x) ? x : String(x));
const plain = (v) => {
  if (v === null || v === undefined || typeof v === 'boolean' || typeof v === 'number') return { ok: true, value: v };
  if (typeof v === 'object' && !Array.isArray(v)) return { ok: true, value: { pass: primitive(v.pass), score: primitive(v.score), reason: v.reason == null ? v.reason : String(v.reason) } };
  return { ok: false, error: 'returned ' + (Array.isArray(v) ? 'an array' : typeof v) + ', not a boolean, a number or { pass, score, reason }' };
};
let checks;
import(pathToFileURL(workerData.file).href).then(
  (mod) => {
    checks = mod;
    const names = Object.keys(mod).filter((k) => k !== 'default' && typeof mod[k] === 'function');
    parentPort.postMessage({ type: 'ready', names, hasDefault: typeof mod.default === 'function' });
  },
  (e) => parentPort.postMessage({ type: 'load-error', error: describe(e) }),
);
parentPort.on('message', async ({ id, name, ctx }) => {
  let reply;
  try {
    reply = plain(await checks[name](ctx));
  } catch (e) {
    reply = { ok: false, error: 'threw: ' + describe(e) };
  }
  parentPort.postMessage({ type: 'result', id, ...reply });
});
`;
