import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../errors.js';
import { holderIsGone, instanceOf, parseProcStat, type ProcReader } from './process-instance.js';
import { claimRunDir, LOCK_FILE, type LockOwner } from './run-dir-lock.js';

const BOOT = '6f1c2d9e-1111-4a4a-9b9b-000000000001';
/** A /proc/PID/stat line as Linux writes it; the command name holds a space and a parenthesis on purpose. */
const statLine = (pid: number, state: string, startTicks: number) =>
  `${pid} (node (x) y) ${state} 1 ${pid} ${pid} 0 -1 4194560 100 0 0 0 5 2 0 0 20 0 11 0 ${startTicks} 1000000 5000 18446744073709551615\n`;

/** A fake /proc: pid → its stat line, plus the boot id; absent pids (and everything without /proc) read undefined. */
function fakeProc(processes: Partial<Record<number, string>>, bootId: string | null = BOOT): ProcReader {
  return (path) => {
    if (path === '/proc/sys/kernel/random/boot_id') return bootId === null ? undefined : `${bootId}\n`;
    const pid = /^\/proc\/(\d+)\/stat$/.exec(path)?.[1];
    return pid === undefined ? undefined : processes[Number(pid)];
  };
}

describe('parseProcStat', () => {
  it.each([
    { name: 'running', text: statLine(42, 'S', 987654), want: { state: 'running', startTicks: '987654' } },
    { name: 'a zombie', text: statLine(42, 'Z', 987654), want: { state: 'zombie' } },
    { name: 'dead', text: statLine(42, 'X', 987654), want: { state: 'zombie' } },
    { name: 'cut short', text: '42 (node) S 1 2 3', want: undefined },
    { name: 'not a stat line', text: 'hello', want: undefined },
  ])('$name', ({ text, want }) => expect(parseProcStat(text)).toEqual(want));
});

describe('holderIsGone', () => {
  const holder = { startTicks: '1000', bootId: BOOT };
  const alive = () => true;
  it.each([
    { name: 'the same instance, running', proc: { 7: statLine(7, 'S', 1000) }, isAlive: alive, gone: false },
    { name: 'a zombie answering signal 0', proc: { 7: statLine(7, 'Z', 1000) }, isAlive: alive, gone: true },
    { name: 'the pid reused by another process', proc: { 7: statLine(7, 'S', 2000) }, isAlive: alive, gone: true },
    { name: 'no process with that pid', proc: {}, isAlive: () => false, gone: true },
    { name: 'no /proc: signal 0 says alive', proc: {}, isAlive: alive, gone: false },
  ])('$name', ({ proc, isAlive, gone }) =>
    expect(holderIsGone(7, holder, { bootId: BOOT, read: fakeProc(proc), isAlive })).toBe(gone),
  );

  it('another boot: gone, even though a process of that pid and start time runs now', () => {
    const here = {
      bootId: 'another-boot',
      read: fakeProc({ 7: statLine(7, 'S', 1000) }, 'another-boot'),
      isAlive: () => true,
    };
    expect(holderIsGone(7, holder, here)).toBe(true);
  });

  it('a lock of an older version (no start time, no boot id): signal 0 and the zombie check only', () => {
    const old = { startTicks: null, bootId: null };
    const read = fakeProc({ 7: statLine(7, 'S', 2000), 8: statLine(8, 'Z', 5) });
    expect(holderIsGone(7, old, { bootId: BOOT, read, isAlive: () => true })).toBe(false);
    expect(holderIsGone(8, old, { bootId: BOOT, read, isAlive: () => true })).toBe(true);
  });
});

describe('claimRunDir with a fake /proc', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const owner = (pid: number, read: ProcReader): LockOwner => ({
    pid,
    hostname: 'box',
    command: 'eval',
    instance: instanceOf(pid, read),
    readProc: read,
    isAlive: (p) => read(`/proc/${p}/stat`) !== undefined,
  });

  it('records its start time and boot id; a live holder keeps the directory', async () => {
    dir = mkdtempSync(join(tmpdir(), 'chatbench-lock-'));
    const read = fakeProc({ 1: statLine(1, 'S', 500), 2: statLine(2, 'R', 900) });
    const first = await claimRunDir(dir, { label: '--out x', create: false, owner: owner(1, read) });
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: 1,
      start_ticks: '500',
      boot_id: BOOT,
    });
    await expect(claimRunDir(dir, { label: '--out x', create: false, owner: owner(2, read) })).rejects.toThrow(
      UsageError,
    );
    await first.release();
  });

  it.each([
    { name: 'a zombie holder', holder: statLine(1, 'Z', 500) },
    { name: 'a restarted container: pid 1 again, another start time', holder: statLine(1, 'S', 77) },
  ])('$name: the lock is stale and taken over', async ({ holder }) => {
    dir = mkdtempSync(join(tmpdir(), 'chatbench-lock-'));
    const lock = {
      pid: 1,
      hostname: 'box',
      command: 'eval',
      started_at: '2026-01-01T00:00:00.000Z',
      token: 'old',
      start_ticks: '500',
      boot_id: BOOT,
    };
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify(lock));
    const read = fakeProc({ 1: holder, 2: statLine(2, 'R', 900) });
    const claim = await claimRunDir(dir, { label: '--out x', create: false, owner: owner(2, read) });
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: 2, start_ticks: '900' });
    await claim.release();
  });
});
