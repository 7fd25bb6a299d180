/**
 * `npx tsx test/bench/decoder.bench.ts [stream file]`: µs of CPU to decode one streamed answer, the
 * stream decoder alone (issue 24 item 1). The default stream is an answer captured from `chatbench
 * serve` (test/bench/fixtures/serve-answer.ndjson: 91 lines, 81 of them message_delta), pushed one
 * line per chunk as the simulator writes it. Rounds of 2,000 decodes after a warm-up; prints each
 * round's µs per request, the median, and the load average (a timing on a shared machine).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createStreamDecoder } from '../../src/client/wire/index.js';

const DEFAULT = fileURLToPath(new URL('fixtures/serve-answer.ndjson', import.meta.url));
const ROUNDS = 7;
const PER_ROUND = 2_000;

const bytes = new Uint8Array(readFileSync(process.argv[2] ?? DEFAULT));
const chunks: Uint8Array[] = [];
for (let from = 0, nl = bytes.indexOf(0x0a); from < bytes.length; nl = bytes.indexOf(0x0a, from)) {
  const to = nl === -1 ? bytes.length : nl + 1;
  chunks.push(bytes.slice(from, to));
  from = to;
}

/** Decodes the stream once; returns the parts' count so the work cannot be optimised away. */
function decodeOnce(): number {
  const decoder = createStreamDecoder();
  let parts = 0;
  for (const chunk of chunks) parts += decoder.push(chunk).length;
  return parts + decoder.end().length;
}

let sink = 0;
for (let i = 0; i < PER_ROUND; i++) sink += decodeOnce();
const rounds: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const start = process.cpuUsage();
  for (let i = 0; i < PER_ROUND; i++) sink += decodeOnce();
  const used = process.cpuUsage(start);
  rounds.push((used.user + used.system) / PER_ROUND);
}
const median = [...rounds].sort((a, b) => a - b)[Math.floor(ROUNDS / 2)] ?? NaN;
process.stdout.write(
  `${chunks.length} lines/request; µs of CPU per request: ${rounds.map((r) => r.toFixed(1)).join(' ')}; ` +
    `median ${median.toFixed(1)} (parts ${sink}); load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
);
