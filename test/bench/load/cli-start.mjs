/**
 * @module bench/load/cli-start
 * Preloaded into a chatbench tool's process of bench:load (`--import tsx --import cli-start.mjs`):
 * what the CLI does first thing (src/cli/bin.ts) before it loads a command, so that the load
 * use-case the benchmark runs in-process is measured as `chatbench load` runs. Without it the
 * young generation kept V8's default growth (16 MiB semi-spaces) that the CLI caps, and a change
 * to the cap could not show in the benchmark. CHATBENCH_TOOL_ROOT is the checkout whose compiled
 * dist/runner/young-generation.js is used (this one, or CHATBENCH_BENCH_BASELINE's): the very module
 * the use-case loads from dist/, as the CLI's bin.js does. Its sources through tsx were a second copy
 * of the module, whose observer never heard the runner's noteSending(): the cap never rose to the
 * busy one, and the benchmark measured 1,000/s with a young generation the CLI does not keep there.
 * CHATBENCH_MAIN_SEMI_SPACE_MB and CHATBENCH_BUSY_SEMI_SPACE_MB (measurements only) set the two caps.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.env.CHATBENCH_TOOL_ROOT;
if (root === undefined) throw new Error('cli-start.mjs: CHATBENCH_TOOL_ROOT is not set');
const { capYoungGeneration } = await import(pathToFileURL(join(root, 'dist', 'runner', 'young-generation.js')).href);
const mb = (name) => (process.env[name] === undefined ? undefined : Number(process.env[name]));
capYoungGeneration(mb('CHATBENCH_MAIN_SEMI_SPACE_MB'), mb('CHATBENCH_BUSY_SEMI_SPACE_MB'));
