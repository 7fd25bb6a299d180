/**
 * Issue 27 §8, `--ca-file`: a deployment behind a certificate from a private or self-signed CA.
 * An HTTPS front on loopback (the fixture certificate of test/fixtures/tls, issued by its own test
 * CA) passes every request on to the simulator; without the CA the eval is refused with the
 * certificate named, with `--ca-file` (or CHATBENCH_CA_FILE) it runs.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { main } from '../../src/cli/main.js';
import { forgetTrustedCertificates } from '../../src/client/trust.js';
import { createFakeIo } from '../helpers/fake-io.js';
import { startSim, TOKENS } from '../helpers/start-sim.js';

const TLS = join(import.meta.dirname, '..', 'fixtures', 'tls');
/** HTTPS in front of the simulator's HTTP: each request passed on as it comes, the answer streamed back. */
function startTlsFront(target: URL): Promise<Server> {
  const server = createServer(
    { cert: readFileSync(join(TLS, 'server.pem')), key: readFileSync(join(TLS, 'server-key.pem')) },
    (req, res) => {
      const upstream = httpRequest(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    },
  );
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The simulator behind an HTTPS front, both closed when the test ends; a dataset of one question in `dir`. */
async function setUp(): Promise<{ httpsUrl: string; dir: string }> {
  const sim = await startSim({ config: { chat: { time_scale: 0.005 } } });
  const target = new URL(sim.baseUrl);
  const front = await startTlsFront(target);
  onTestFinished(async () => {
    front.closeAllConnections();
    await new Promise((resolve) => front.close(resolve));
  });
  const dir = mkdtempSync(join(tmpdir(), 'chatbench-ca-'));
  writeFileSync(join(dir, 'q.csv'), 'id,question\nq1,How do I reset my VPN password?\n');
  return { httpsUrl: `https://127.0.0.1:${(front.address() as AddressInfo).port}${target.pathname}`, dir };
}

async function evalOver(args: readonly string[], env: Record<string, string> = {}) {
  const { httpsUrl, dir } = await setUp();
  const fake = createFakeIo({ env, cwd: dir });
  const code = await main(
    [
      'eval',
      '--base-url',
      httpsUrl,
      '--token',
      TOKENS.demo,
      '--dataset',
      'q.csv',
      '--judge',
      'off',
      '--out',
      `run-${Math.random().toString(36).slice(2)}`,
      ...args,
    ],
    fake.io,
  );
  return { code, stderr: fake.stderr() };
}

describe('--ca-file: HTTPS with a private CA', () => {
  it('without the CA: refused, the certificate named', async () => {
    const { code, stderr } = await evalOver([]);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/certificate/i);
    expect(stderr).toContain('give its CA with --ca-file ca.pem (or NODE_EXTRA_CA_CERTS)');
  });

  it.each([
    { name: '--ca-file', args: ['--ca-file', join(TLS, 'ca.pem')], env: {} as Record<string, string> },
    { name: 'CHATBENCH_CA_FILE', args: [], env: { CHATBENCH_CA_FILE: join(TLS, 'ca.pem') } },
  ])('with $name: the eval runs over HTTPS', async ({ args, env }) => {
    onTestFinished(forgetTrustedCertificates);
    const { code, stderr } = await evalOver(args, env);
    expect({ code, stderr: stderr.match(/certificate.*/i)?.[0] }).toEqual({ code: 0, stderr: undefined });
  });

  it('a file without a PEM certificate: exit 2 naming it', async () => {
    const { code, stderr } = await evalOver(['--ca-file', 'q.csv']);
    expect(code).toBe(2);
    expect(stderr).toContain('--ca-file q.csv: no PEM certificate in it');
  });
});
