/**
 * @module bench/load/truth-child
 * The truth server of truth.ts in its own process: the simulator with every chat response's first
 * write and first answer write logged from inside (bench/lib/sim-child.ts, bench/lib/sim-trace.ts).
 */
import { runSimChild } from '../lib/sim-child.js';

await runSimChild();
