/**
 * `chatbench load` reads its dataset by byte offset (dataset/row-source), as eval does: a bad row is
 * still refused before anything is sent (one line naming the file, the line and the field; exit 2;
 * no run directory; not one request reaches the service).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createFakeIo } from '../helpers/fake-io.js';

describe('load with a bad dataset', () => {
  it.each([['1'], ['2']])('is refused before anything is sent (--workers %s)', async (workers) => {
    let requests = 0;
    const server = createServer((_req, res) => {
      requests += 1;
      res.writeHead(500).end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    onTestFinished(() => {
      server.closeAllConnections();
      server.close();
    });
    const dir = mkdtempSync(join(tmpdir(), 'chatbench-load-dataset-'));
    const dataset = join(dir, 'questions.csv');
    writeFileSync(dataset, 'id,question,must_contain\nq1,First?,a\nq2,,b\nq3,Third?,c\n');
    const out = join(dir, 'run');
    const fake = createFakeIo({ cwd: dir });
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const args = ['load', '--base-url', baseUrl, '--token', 'x'.repeat(16), '--dataset', dataset, '--out', out];
    const code = await main([...args, '--rate', '5', '--duration', '1s', '--workers', workers], fake.io);
    expect(code, fake.stderr()).toBe(2);
    expect(fake.stderr().trim().split('\n')).toEqual([`chatbench: ${dataset}:3: question: is empty`]);
    expect(existsSync(out)).toBe(false);
    expect(requests).toBe(0);
  });
});
