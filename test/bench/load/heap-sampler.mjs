/**
 * @module bench/load/heap-sampler
 * Preloaded by alloc-sites.ts into one tool-child.ts run: V8's sampling heap profiler over the
 * measured span only (the first and second process.cpuUsage() calls mark it, as in gc-marker.mjs),
 * counting objects already collected by a scavenge or a full collection too, so the profile is what
 * the span allocated, not what it kept. The profile goes to CHATBENCH_HEAP_PROFILE as JSON.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const out = process.env.CHATBENCH_HEAP_PROFILE;
if (out === undefined) throw new Error('heap-sampler.mjs: CHATBENCH_HEAP_PROFILE is not set');
const session = new Session();
session.connect();
const post = (method, params) => {
  let result;
  session.post(method, params, (error, r) => {
    if (error) throw error;
    result = r;
  });
  return result;
};
const cpuUsage = process.cpuUsage.bind(process);
let calls = 0;
process.cpuUsage = (previous) => {
  calls += 1;
  if (calls === 1) {
    post('HeapProfiler.enable');
    post('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  } else if (calls === 2) {
    const { profile } = post('HeapProfiler.stopSampling');
    writeFileSync(out, JSON.stringify(profile));
  }
  return cpuUsage(previous);
};
