/**
 * @module app/shared/target
 * Where a run sends: a service the user names, or the embedded simulated service for a dry run,
 * started in-process on a loopback ephemeral port and closed when the run ends.
 */
import { toolIdsOf, type ToolIds } from '../../plan/tools.js';

/** The embedded simulator's tools (its default catalogue), name → id: a dataset's tool names are checked against them. */
export async function simulatorToolIds(): Promise<ToolIds> {
  const { DEFAULT_TOOLS } = await import('../../sim/index.js');
  return toolIdsOf(DEFAULT_TOOLS.map((tool) => [tool.name, tool.id] as const));
}

export interface Target {
  readonly kind: 'service' | 'simulator';
  readonly baseUrl: string;
  readonly token: string | undefined;
  /** The simulator's judge (its root URL, serving /v1/chat/completions); undefined for a service. */
  readonly judgeUrl?: string | undefined;
  close(): Promise<void>;
}

/** The simulator's origin: its judge serves /v1/chat/completions there, beside the service's base path. */
const originOf = (baseUrl: string) => new URL(baseUrl).origin;

export async function openTarget(options: {
  sim: boolean;
  seed: number;
  baseUrl?: string | undefined;
  token?: string | undefined;
  timeScale?: number | undefined;
}): Promise<Target> {
  if (!options.sim) {
    return { kind: 'service', baseUrl: options.baseUrl!, token: options.token, close: async () => {} };
  }
  // Loaded only for a dry run: a run against a service does not pay for the simulator's modules at start.
  const { DEMO_TOKEN, startSimulator } = await import('../../sim/index.js');
  const sim = await startSimulator({
    seed: options.seed,
    token: options.token ?? DEMO_TOKEN,
    ...(options.timeScale === undefined ? {} : { config: { chat: { time_scale: options.timeScale } } }),
  });
  return {
    kind: 'simulator',
    baseUrl: sim.baseUrl,
    token: options.token ?? DEMO_TOKEN,
    judgeUrl: originOf(sim.baseUrl),
    close: () => sim.close(),
  };
}

/** `--judge sim` against a real service: a simulator started only for its rule-based judge. */
export async function openSimulatedJudge(seed: number): Promise<{ url: string; close(): Promise<void> }> {
  const { startSimulator } = await import('../../sim/index.js');
  const sim = await startSimulator({ seed });
  return { url: originOf(sim.baseUrl), close: () => sim.close() };
}
