/**
 * The simulator in its own process (`chatbench serve --port 0`), for the load benchmark and the
 * capacity tests: a load generator sharing its event loop with the simulator would measure both
 * at once (its schedule lag, and the limiter's view of arrival times). Loopback only; close()
 * sends SIGTERM to this child alone and waits for it to exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface SimProcess {
  readonly baseUrl: string;
  readonly pid: number;
  close(): Promise<void>;
}

const ROOT = resolve(import.meta.dirname, '../../..');
const START_TIMEOUT_MS = 20_000;

/** Starts `chatbench serve` on 127.0.0.1:0 with `config` (a sim config object); resolves once it listens. */
export async function startSimProcess(config: Record<string, unknown>): Promise<SimProcess> {
  const file = join(mkdtempSync(join(tmpdir(), 'chatbench-sim-')), 'sim.json');
  writeFileSync(file, JSON.stringify(config));
  const child: ChildProcess = spawn(
    process.execPath,
    ['bin/chatbench.js', 'serve', '--host', '127.0.0.1', '--port', '0', '--sim-config', file],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((done) => setTimeout(done, 5000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  let output = '';
  const baseUrl = await new Promise<string>((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`the simulator did not start within ${START_TIMEOUT_MS} ms:\n${output}`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\S*)/.exec(output);
      if (match) {
        clearTimeout(timer);
        done(match[1]!);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`the simulator exited (${code}) before listening:\n${output}`));
    });
  }).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  return { baseUrl, pid: child.pid ?? -1, close };
}
