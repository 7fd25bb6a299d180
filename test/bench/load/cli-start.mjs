/**
 * @module bench/load/cli-start
 * Preloaded into a chatbench tool's process of bench:load (`--import tsx --import cli-start.mjs`):
 * what the CLI does first thing (src/cli/bin.ts) before it loads a command, so that the load
 * use-case the benchmark runs in-process is measured as `chatbench load` runs. Without it the
 * young generation kept V8's default growth (16 MiB semi-spaces) that the CLI caps, and a change
 * to the cap could not show in the benchmark. CHATBENCH_TOOL_ROOT is the checkout whose
 * src/runner/young-generation.ts is used (this one, or CHATBENCH_BENCH_BASELINE's).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = process.env.CHATBENCH_TOOL_ROOT;
if (root === undefined) throw new Error('cli-start.mjs: CHATBENCH_TOOL_ROOT is not set');
const { capYoungGeneration } = await import(pathToFileURL(join(root, 'src', 'runner', 'young-generation.ts')).href);
capYoungGeneration();
