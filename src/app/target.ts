/**
 * @module app/target
 * Where a run sends: a service the user names, or the embedded simulated service for a dry run,
 * started in-process on a loopback ephemeral port and closed when the run ends.
 */
import { DEMO_TOKEN, startSimulator } from '../sim/index.js';

export interface Target {
  readonly kind: 'service' | 'simulator';
  readonly baseUrl: string;
  readonly token: string | undefined;
  close(): Promise<void>;
}

export async function openTarget(options: { sim: boolean; seed: number; baseUrl?: string | undefined; token?: string | undefined }): Promise<Target> {
  if (!options.sim) {
    return { kind: 'service', baseUrl: options.baseUrl!, token: options.token, close: async () => {} };
  }
  const sim = await startSimulator({ seed: options.seed, token: options.token ?? DEMO_TOKEN });
  return { kind: 'simulator', baseUrl: sim.baseUrl, token: options.token ?? DEMO_TOKEN, close: () => sim.close() };
}
