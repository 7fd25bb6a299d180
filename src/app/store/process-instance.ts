/**
 * @module app/store/process-instance
 * What tells one process instance from another with the same pid: a pid is reused (a restarted
 * container is pid 1 again, on the same hostname), and a zombie answers signal 0 although it will
 * never write again. On Linux, `/proc/PID/stat` gives the process's state (field 3) and its start
 * time in clock ticks since boot (field 22), and `/proc/sys/kernel/random/boot_id` tells one boot
 * from the next; together they name one instance. Where /proc is absent (macOS, a sandbox), both
 * are unknown and only signal 0 is left. The /proc reader is passed in, so tests fake it.
 */

/** Reads a /proc file's text; undefined when it is absent or unreadable. */
export type ProcReader = (path: string) => string | undefined;

/** One process instance: its start time in clock ticks since boot, and the boot it started in; null when unknown. */
export interface ProcessInstance {
  readonly startTicks: string | null;
  readonly bootId: string | null;
}

/** What /proc says of a pid: not there, a zombie (exited, not yet reaped), or running since `startTicks`. */
export type ProcStat = { readonly state: 'zombie' } | { readonly state: 'running'; readonly startTicks: string };

/**
 * Parses `/proc/PID/stat`: `pid (comm) S ppid ... starttime ...`. The command name may hold spaces
 * and parentheses, so fields are counted after the last `)`: field 3 (state) is the first there,
 * field 22 (starttime) the twentieth. Undefined when the text is not of that shape.
 */
export function parseProcStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(')');
  if (close === -1) return undefined;
  const fields = text
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  const state = fields[0];
  const startTicks = fields[19];
  if (state === undefined || startTicks === undefined || !/^\d+$/.test(startTicks)) return undefined;
  // Z: zombie; X: dead (only seen in the instant of reaping). Neither will write again.
  return state === 'Z' || state === 'X' ? { state: 'zombie' } : { state: 'running', startTicks };
}

/** The boot id (a UUID), trimmed; null when /proc does not have it. */
export function readBootId(read: ProcReader): string | null {
  const text = read('/proc/sys/kernel/random/boot_id')?.trim();
  return text === undefined || text === '' ? null : text;
}

/** The instance of process `pid` as /proc tells it: null fields where /proc is absent. */
export function instanceOf(pid: number, read: ProcReader): ProcessInstance {
  const stat = readStat(pid, read);
  return { startTicks: stat?.state === 'running' ? stat.startTicks : null, bootId: readBootId(read) };
}

/** /proc/PID/stat parsed; undefined when absent (no such process, or no /proc). */
export function readStat(pid: number, read: ProcReader): ProcStat | undefined {
  const text = read(`/proc/${pid}/stat`);
  return text === undefined ? undefined : parseProcStat(text);
}

/**
 * Whether a lock holder of this host is gone, given what it recorded of itself (`holder`, null
 * fields for a lock of an older chatbench or a host without /proc) and this host now:
 * - another boot than ours (both known): gone, whatever its pid does now;
 * - /proc has the pid: a zombie is gone; a start time other than the recorded one is another
 *   process that reused the pid (gone);
 * - otherwise signal 0 decides (`isAlive`): today's check, where /proc says nothing.
 */
export function holderIsGone(
  pid: number,
  holder: ProcessInstance,
  here: { readonly bootId: string | null; readonly read: ProcReader; readonly isAlive: (pid: number) => boolean },
): boolean {
  if (holder.bootId !== null && here.bootId !== null && holder.bootId !== here.bootId) return true;
  if (!here.isAlive(pid)) return true;
  const stat = readStat(pid, here.read);
  if (stat === undefined) return false;
  if (stat.state === 'zombie') return true;
  return holder.startTicks !== null && holder.startTicks !== stat.startTicks;
}
