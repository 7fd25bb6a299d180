/**
 * Issue 27: `chatbench … --json | head` used to die with an EPIPE stack trace and exit 1. A reader
 * that goes away is no error for a Unix tool: the process (dist/, built by global setup or
 * `node scripts/build-cli.mjs`) exits 0 and prints no error.
 */
import { describe, expect, it } from 'vitest';
import { spawnCli } from '../helpers/spawn-cli.js';

describe('a closed stdout pipe', () => {
  it.each([
    { name: 'help text', args: ['load', '--help'] },
    { name: 'the version before anything else loads', args: ['--version'] },
    { name: 'a --json result', args: ['validate', '--sim', '--dataset', 'test/fixtures/datasets/good.csv', '--json'] },
  ])('$name: exit 0, no error on stderr', async ({ args }) => {
    const cli = spawnCli(args);
    // Closed before the child writes anything: its first write to stdout fails with EPIPE.
    cli.child.stdout?.destroy();
    const { code, signal } = await cli.exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    // The dataset's own warnings may be there; no EPIPE, no stack trace.
    expect(cli.stderr()).not.toMatch(/EPIPE|^\s+at /m);
  });
});
