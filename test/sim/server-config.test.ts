// The simulator config: defaults, every problem listed with its path, and `chatbench serve`
// run in-process (prints its base URL and tokens, serves until the signal, exits 0; a bad config
// exits 2 with every problem).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it, onTestFinished } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';
import { SimConfigError, parseSimConfig, startSimulator } from '../../src/sim/index.js';
import examples from '../../examples/sim.json' with { type: 'json' };

function problemsOf(input: unknown): readonly string[] {
  try {
    parseSimConfig(input, 'sim.json');
  } catch (error) {
    if (error instanceof SimConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('config', () => {
  it('an empty config is the default simulator', () => {
    const config = parseSimConfig({});
    expect(config).toMatchObject({
      base_path: '/api',
      anonymous_chat: false,
      validation_shape: 'description',
      max_body_bytes: 1024 * 1024,
      open_urls: { provider_type: 'onyx_web_crawler', pages: {} },
      rate_limits: { budgets: {}, requests_per_second: {} },
    });
    expect(config.tokens).toBeUndefined();
    expect(config.chat.time_scale).toBe(1);
  });

  it('lists every problem with the file name and its path', () => {
    const problems = problemsOf({
      base_path: 'api',
      tokens: [
        { token: 'ok', user_id: 'u' },
        { token: '', user_id: 'u', scopes: ['admin'] },
      ],
      validation_shape: 'xml',
      rate_limits: {
        budgets: { global: { tokens: 'many', window_s: 60 } },
        requests_per_second: { per_token: { rate: 0, burst: 1 } },
      },
      max_body_bytes: -1,
      open_urls: { provider_type: 'google' },
      projects: [{ id: 1.5, owner: 'u' }],
      colour: 'blue',
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        'sim.json: base_path: base_path must be "" or a path such as "/api"',
        'sim.json: tokens[1].token: a token must not be empty',
        expect.stringMatching(/^sim\.json: tokens\[1\]\.scopes\[0\]: .*"basic"/),
        expect.stringMatching(/^sim\.json: validation_shape: .*"description"\|"deployed"/),
        'sim.json: rate_limits.budgets.global.tokens: expected number, received string',
        expect.stringMatching(/^sim\.json: rate_limits\.requests_per_second\.per_token\.rate: Too small/),
        expect.stringMatching(/^sim\.json: max_body_bytes: Too small/),
        expect.stringMatching(/^sim\.json: open_urls\.provider_type: .*"onyx_web_crawler"/),
        'sim.json: projects[0].id: expected int, received number',
        'sim.json: (root): Unrecognized key: "colour"',
      ]),
    );
    expect(problems).toHaveLength(10);
  });

  it('startSimulator rejects an invalid config before listening', async () => {
    await expect(startSimulator({ config: { max_body_bytes: 'big' } as never })).rejects.toBeInstanceOf(SimConfigError);
  });

  it('examples/sim.json is a valid config', () => {
    expect(() => parseSimConfig(examples, 'examples/sim.json')).not.toThrow();
  });
});

function testIo() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk) => (out += chunk));
  stderr.on('data', (chunk) => (err += chunk));
  const controller = new AbortController();
  const io: Io = {
    stdout,
    stderr,
    env: {},
    cwd: process.cwd(),
    signal: controller.signal,
    onSecondInterrupt: () => undefined,
  };
  return { io, abort: () => controller.abort(), out: () => out, err: () => err };
}

async function waitFor(predicate: () => boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('chatbench serve', () => {
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatbench-serve-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    return dir;
  };

  it('prints its base URL and tokens, serves, and exits 0 on the signal', async () => {
    const t = testIo();
    const exit = main(['serve', '--port', '0', '--token', 'onyx_pat_from_flag', '--time-scale', '0.02'], t.io);
    onTestFinished(() => t.abort());
    await waitFor(() => t.out().includes('Ctrl+C'));
    const baseUrl = /listening on (\S+)/.exec(t.out())?.[1] ?? '';
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(t.out()).toMatch(/onyx_pat_from_flag\s+user demo-user, unrestricted/);
    expect(t.out()).toMatch(/onyx_pat_chatbench_search_only\s+user demo-user, scopes read:search/);
    const res = await fetch(`${baseUrl}/user/projects/1/instructions`, {
      headers: { authorization: 'Bearer onyx_pat_from_flag' },
    });
    expect(res.status).toBe(200);
    t.abort();
    expect(await exit).toBe(0);
    expect(t.out()).toContain('stopped');
    await expect(fetch(`${baseUrl}/user/projects/1/instructions`)).rejects.toThrow();
  });

  it('takes the demo token from CHATBENCH_SIM_TOKEN', async () => {
    const t = testIo();
    const io = { ...t.io, env: { CHATBENCH_SIM_TOKEN: 'onyx_pat_from_env' } };
    const exit = main(['serve', '--port', '0'], io);
    onTestFinished(() => t.abort());
    await waitFor(() => t.out().includes('Ctrl+C'));
    expect(t.out()).toMatch(/onyx_pat_from_env\s+user demo-user, unrestricted/);
    t.abort();
    expect(await exit).toBe(0);
  });

  it('an invalid config file exits 2 and lists every problem', async () => {
    const dir = tempDir();
    const file = join(dir, 'sim.json');
    writeFileSync(
      file,
      JSON.stringify({ anonymous_chat: 'yes', rate_limits: { budgets: { per_user: { tokens: 10 } } } }),
    );
    const t = testIo();
    expect(await main(['serve', '--port', '0', '--sim-config', file], t.io)).toBe(2);
    expect(t.err()).toContain(`${file}: anonymous_chat: expected boolean, received string`);
    expect(t.err()).toContain(`${file}: rate_limits.budgets.per_user.window_s: expected number, received undefined`);
    expect(t.out()).not.toContain('listening');
  });

  it.each([
    ['a missing file', null, /cannot read the config file \(ENOENT\)/],
    ['malformed JSON', '{"base_path": ', /not a JSON object/],
  ])('%s exits 2', async (_name, content, message) => {
    const dir = tempDir();
    const file = join(dir, 'sim.json');
    if (content !== null) writeFileSync(file, content);
    const t = testIo();
    expect(await main(['serve', '--sim-config', file], t.io)).toBe(2);
    expect(t.err()).toMatch(message);
  });

  it('--onyx-release speaks that release, says so, and an unknown one exits 2', async () => {
    const t = testIo();
    const exit = main(['serve', '--port', '0', '--onyx-release', '3.1'], t.io);
    onTestFinished(() => t.abort());
    await waitFor(() => t.out().includes('Ctrl+C'));
    expect(t.out()).toMatch(/listening on \S+ \(speaking Onyx v3\.1\.0\)/);
    const baseUrl = /listening on (\S+)/.exec(t.out())?.[1] ?? '';
    expect(await (await fetch(`${baseUrl}/version`)).json()).toEqual({ backend_version: 'v3.1.0' });
    t.abort();
    expect(await exit).toBe(0);
    const bad = testIo();
    expect(await main(['serve', '--port', '0', '--onyx-release', '2.6'], bad.io)).toBe(2);
    expect(bad.err()).toContain(
      '--onyx-release: onyx_release: unknown Onyx release "2.6": one of 2.7, 2.12, 3.0, 3.1, 3.2, 3.3, 4.0, 4.1, 4.2, 4.3, 4.4, 4.5, 4.6',
    );
  });

  it('a port in use exits 3', async () => {
    const sim = await startSimulator();
    onTestFinished(() => sim.close());
    const port = new URL(sim.baseUrl).port;
    const t = testIo();
    expect(await main(['serve', '--port', port], t.io)).toBe(3);
    expect(t.err()).toContain('EADDRINUSE');
  });

  it('--help shows a curl of each operation', async () => {
    const t = testIo();
    expect(await main(['serve', '--help'], t.io)).toBe(0);
    for (const op of ['chat/send-chat-message', 'web-search/open-urls', 'user/projects/1/instructions'])
      expect(t.out()).toContain(op);
    expect(t.out()).toContain('CHATBENCH_SIM_TOKEN');
  });
});
