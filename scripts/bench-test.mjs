#!/usr/bin/env node
// `npm run bench:test`: where `npm test`'s time goes, measured on one whole run of it (Linux: /proc).
// It must stay under two minutes on a quiet machine, and on two cores its wall time is about its
// CPU ÷ 2 (docs/development.md): so this counts the CPU of every process the run starts, by kind —
// vitest's forks, its main process, the CLIs the tests spawn, Chromium, the static checks — read
// from /proc every 250 ms (a process is counted as of its last reading), and each test file's CPU in
// its fork (test/bench/suite/file-cpu.ts: its own and its reaped children's, imports left out).
// Writes reports/bench/test-suite.json and .md. A timing of this machine, with its load average:
// compare runs of the same hour, alternating, never across machines.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { setInterval, clearInterval } from 'node:timers';

const HZ = 100; // Linux's USER_HZ: /proc's clock ticks a second
const POLL_MS = 250;
const TOP_FILES = 30;

if (process.platform !== 'linux') throw new Error('bench:test reads /proc: it runs on Linux only');

/** A process's start, in clock ticks since boot, and its CPU seconds (proc(5) stat fields 14, 15, 22). */
function statOf(pid) {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { cpu: (Number(fields[11]) + Number(fields[12])) / HZ, start: Number(fields[19]) };
}

/** What a process is, from its command line. */
function kindOf(cmd) {
  if (/chromium|chrome|\/proc\/self\/exe --type=/.test(cmd)) return 'chromium';
  if (/bin\/chatbench\.js/.test(cmd)) return 'chatbench CLIs the tests spawn';
  if (/node_modules\/vitest\/dist\/(workers|chunks)|vitest\/dist\/.*fork/.test(cmd)) return 'vitest forks';
  if (/node_modules\/\.bin\/vitest|vitest\.mjs/.test(cmd)) return 'vitest main process';
  if (/typescript|tsc\b/.test(cmd)) return 'static checks: typecheck';
  if (/eslint/.test(cmd)) return 'static checks: lint';
  if (/prettier/.test(cmd)) return 'static checks: format';
  if (/depcruise|dependency-cruiser/.test(cmd)) return 'static checks: imports';
  if (/build-cli|build-viewer|esbuild/.test(cmd)) return 'build';
  if (/prometheus|promtool/.test(cmd)) return 'prometheus';
  if (/^node |\/node /.test(cmd)) return 'other node processes (node -e, npm, scripts)';
  return 'other';
}

const ourStart = statOf(process.pid).start;
const seen = new Map(); // pid → { cpu, kind }
function poll() {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const { cpu, start } = statOf(name);
      if (start < ourStart) continue; // before this run: not its work
      let entry = seen.get(name);
      if (entry === undefined) {
        const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
        seen.set(name, (entry = { cpu, kind: kindOf(cmd) }));
      }
      entry.cpu = cpu;
    } catch {
      // Gone between the listing and the read: counted as of its last reading.
    }
  }
}

const scratch = mkdtempSync(join(tmpdir(), 'chatbench-bench-test-'));
const filesOut = join(scratch, 'files.tsv');
writeFileSync(filesOut, '');
const loadStart = loadavg();
const started = performance.now();
const timer = setInterval(poll, POLL_MS);
const child = spawn('npm', ['test'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, CHATBENCH_SUITE_CPU: filesOut },
});
let stdout = '';
child.stdout.on('data', (chunk) => {
  stdout += chunk;
  process.stdout.write(chunk);
});
const status = await new Promise((resolve) => child.once('close', (code) => resolve(code ?? 1)));
clearInterval(timer);
poll();
const wallS = (performance.now() - started) / 1000;
const loadEnd = loadavg();

const byKind = new Map();
for (const { cpu, kind } of seen.values()) byKind.set(kind, (byKind.get(kind) ?? 0) + cpu);
const cpuS = [...byKind.values()].reduce((a, b) => a + b, 0);
const files = readFileSync(filesOut, 'utf8')
  .trim()
  .split('\n')
  .filter(Boolean)
  .map((line) => {
    const [self, children, wall, path] = line.split('\t');
    return { file: relative(process.cwd(), path), self: Number(self), children: Number(children), wall: Number(wall) };
  })
  .sort((a, b) => b.self + b.children - (a.self + a.children));
rmSync(scratch, { recursive: true, force: true });
const inFiles = files.reduce((sum, f) => sum + f.self + f.children, 0);
const closing = stdout.trimEnd().split('\n').at(-1) ?? '';

const round = (n) => Math.round(n * 10) / 10;
const result = {
  machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown'}, Node ${process.version}`,
  load_average_start: loadStart.map(round),
  load_average_end: loadEnd.map(round),
  status,
  closing,
  wall_s: round(wallS),
  cpu_s: round(cpuS),
  cpu_by_kind_s: Object.fromEntries([...byKind].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, round(v)])),
  test_files: files.length,
  cpu_in_test_files_s: round(inFiles),
  files,
};
const md = [
  '# bench:test — where `npm test` spends its time',
  '',
  `${result.machine}. Load average ${loadStart.map((l) => l.toFixed(2)).join(' / ')} at the start, ${loadEnd.map((l) => l.toFixed(2)).join(' / ')} at the end.`,
  '',
  `\`npm test\`: **${result.wall_s} s** wall, **${result.cpu_s} CPU s** over every process it started (exit ${status}: ${closing}).`,
  '',
  '| processes | CPU s | share |',
  '|:---|---:|---:|',
  ...Object.entries(result.cpu_by_kind_s).map(([k, v]) => `| ${k} | ${v} | ${((100 * v) / cpuS).toFixed(0)}% |`),
  '',
  `The ${files.length} test files' own CPU in their forks (imports left out, their reaped child processes in the second column): ${result.cpu_in_test_files_s} s. The ${TOP_FILES} that cost most:`,
  '',
  '| test file | CPU s in its fork | in processes it spawned | wall s |',
  '|:---|---:|---:|---:|',
  ...files
    .slice(0, TOP_FILES)
    .map((f) => `| ${f.file} | ${f.self.toFixed(1)} | ${f.children.toFixed(1)} | ${f.wall.toFixed(1)} |`),
  '',
];
mkdirSync(join('reports', 'bench'), { recursive: true });
writeFileSync(join('reports', 'bench', 'test-suite.json'), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(join('reports', 'bench', 'test-suite.md'), md.join('\n'));
console.log(`\n${md.slice(0, 8 + byKind.size).join('\n')}`);
console.log('written: reports/bench/test-suite.json, reports/bench/test-suite.md');
process.exitCode = status;
