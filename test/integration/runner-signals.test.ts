import { expect, it } from 'vitest';
import { runPlan } from '../../src/runner/index.js';
import { gatedClient, plannedRequest, untilSent } from '../../src/runner/testing/fake-client.js';

// Lives under test/: it listens to the process's warnings, which src/ may not touch.
const plan = (n: number) => Array.from({ length: n }, (_, i) => plannedRequest(i));
const tick = () => new Promise((resolve) => setImmediate(resolve));
const collect = (
  options: { client: ReturnType<typeof gatedClient>; concurrency: number; retries: number },
  requests: ReturnType<typeof plan>,
) => ({ run: runPlan(requests, { ...options, sleep: () => Promise.resolve(), onRecord: () => undefined }) });

it('many requests in flight on one signal raise no listener-leak warning', async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.name);
  process.on('warning', onWarning);
  try {
    const client = gatedClient();
    const { run } = collect({ client, concurrency: 40, retries: 1 }, plan(40));
    await untilSent(client, 40); // the first wave: a request a turn
    expect(client.inFlight()).toBe(40);
    client.open(true);
    await run;
    await tick();
  } finally {
    process.off('warning', onWarning);
  }
  expect(warnings).not.toContain('MaxListenersExceededWarning');
});
