/**
 * @module app/store/run-dir-lock
 * One process writes a run directory at a time. Before anything is sent, the command claims its
 * directory: it must be a directory chatbench can write (an existing file, `/dev/null` or a
 * read-only place is refused with exit 2), and it takes the directory's lock, `.chatbench.lock`,
 * which holds the owner's pid, host, command and start time, and what identifies its process
 * instance (app/store/process-instance: its start time in ticks since boot and the boot id, where /proc
 * has them). A second process that finds the lock held exits 2 naming the holder. A lock whose
 * process is gone (same host and: pid not alive, a run killed with SIGKILL; a zombie; the pid now
 * another process's, or another boot) is stale and taken over. The lock is created atomically (written under a
 * temporary name, then hard-linked into place, which fails if the lock exists) and removed when the
 * command ends; a directory the claim created and that is still empty is removed with it.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../../errors.js';
import { describeFsError } from './output-files.js';
import { holderIsGone, type ProcessInstance, type ProcReader } from './process-instance.js';

export const LOCK_FILE = '.chatbench.lock';

/** Who claims: passed in by the CLI, the only code that knows its process. */
export interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  /** The command (`eval`, `load --resume`...), shown to a second process. */
  readonly command: string;
  /** This process's own instance, recorded in the lock (null fields where /proc is absent). */
  readonly instance: ProcessInstance;
  /** Reads this host's /proc (to check a holder's state and start time). */
  readonly readProc: ProcReader;
  /** Whether a process of this host is running (signal 0). */
  isAlive(pid: number): boolean;
}

// start_ticks and boot_id are absent from the locks of older versions and null without /proc.
const LockSchema = z.object({
  pid: z.number().int(),
  hostname: z.string(),
  command: z.string(),
  started_at: z.string(),
  token: z.string(),
  start_ticks: z.string().nullable().default(null),
  boot_id: z.string().nullable().default(null),
});
type Lock = z.infer<typeof LockSchema>;

export interface RunDirClaim {
  /** The directory, resolved. */
  readonly dir: string;
  /** True when the claim created the directory. */
  readonly created: boolean;
  /** Removes the lock (and the directory when the claim created it and nothing was written). */
  release(): Promise<void>;
}

export interface ClaimOptions {
  /** How messages name the directory: `--out reports/x`, `--resume reports/x`, `DEST datasets/b`. */
  readonly label: string;
  /** Create the directory (and parents) when missing; false: it must exist (a resumed run, `report DIR`). */
  readonly create: boolean;
  readonly owner: LockOwner;
  readonly now?: () => Date;
}

/** Claims `dir` (resolved) for writing; UsageError (exit 2) when it cannot be written or is held. */
export async function claimRunDir(dir: string, options: ClaimOptions): Promise<RunDirClaim> {
  const { label } = options;
  const created = await ensureDirectory(dir, options);
  const lock: Lock = {
    pid: options.owner.pid,
    hostname: options.owner.hostname,
    command: options.owner.command,
    started_at: (options.now?.() ?? new Date()).toISOString(),
    token: randomBytes(8).toString('hex'),
    start_ticks: options.owner.instance.startTicks,
    boot_id: options.owner.instance.bootId,
  };
  const path = join(dir, LOCK_FILE);
  // Two tries: the second after a stale lock was removed (another process may win that race).
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await createLock(path, lock, label)) {
      return { dir, created, release: () => release(dir, path, lock, created) };
    }
    const holder = await readLock(path);
    if (holder !== undefined && !isStale(holder, options.owner)) {
      if (created) await rmdir(dir).catch(() => undefined);
      throw new UsageError(
        `${label} is being written by another chatbench (pid ${holder.pid} on ${holder.hostname}, \`${holder.command}\` since ${holder.started_at})`,
        {
          hint: `wait for it to end; if that process is gone, delete ${path}`,
        },
      );
    }
    await unlink(path).catch(() => undefined); // stale, or torn: its owner died while writing it
  }
  throw new UsageError(`${label}: another chatbench took the directory's lock at the same moment`, {
    hint: 'run one chatbench per run directory',
  });
}

/** Creates the directory when allowed; refuses a path that is not a writable directory. Returns whether it created it. */
async function ensureDirectory(dir: string, options: ClaimOptions): Promise<boolean> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw new UsageError(`${options.label}: cannot use it (${describeFsError(error)})`);
  });
  if (info !== undefined) {
    if (!info.isDirectory()) {
      const what = info.isFile()
        ? 'a file'
        : info.isCharacterDevice() || info.isBlockDevice()
          ? 'a device'
          : 'not a directory';
      throw new UsageError(`${options.label} is ${what}, not a directory: give a directory for the run`);
    }
    return false;
  }
  if (!options.create) throw new UsageError(`${options.label}: no such directory`);
  try {
    // The first directory mkdir created, if any: the claim removes it again when nothing was written.
    return (await mkdir(dir, { recursive: true })) !== undefined;
  } catch (error) {
    throw new UsageError(`${options.label}: cannot create the directory (${describeFsError(error)})`);
  }
}

/** Creates the lock file atomically; false when one exists. UsageError when the directory cannot be written. */
async function createLock(path: string, lock: Lock, label: string): Promise<boolean> {
  const temp = `${path}.${lock.token}`;
  try {
    await writeFile(temp, `${JSON.stringify(lock)}\n`, { flag: 'wx' });
  } catch (error) {
    throw new UsageError(`${label}: cannot write in this directory (${describeFsError(error)})`);
  }
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: an exclusive create is atomic too (the content follows).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP') {
      return writeFile(path, `${JSON.stringify(lock)}\n`, { flag: 'wx' }).then(
        () => true,
        (e: NodeJS.ErrnoException) => {
          if (e.code === 'EEXIST') return false;
          throw new UsageError(`${label}: cannot write in this directory (${describeFsError(e)})`);
        },
      );
    }
    throw new UsageError(`${label}: cannot write in this directory (${describeFsError(error)})`);
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** The lock's content; undefined when it is gone or unreadable (torn). */
async function readLock(path: string): Promise<Lock | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = LockSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Held by a process of this host that is gone: not running, a zombie, or a pid reused since (see
 * process-instance holderIsGone). A lock of another host is never stale: its pid means nothing here.
 */
const isStale = (holder: Lock, owner: LockOwner): boolean =>
  holder.hostname === owner.hostname &&
  holderIsGone(
    holder.pid,
    { startTicks: holder.start_ticks, bootId: holder.boot_id },
    { bootId: owner.instance.bootId, read: owner.readProc, isAlive: (pid) => owner.isAlive(pid) },
  );

async function release(dir: string, path: string, lock: Lock, created: boolean): Promise<void> {
  const current = await readLock(path);
  if (current?.token === lock.token) await unlink(path).catch(() => undefined);
  if (created) await rmdir(dir).catch(() => undefined); // only when empty: rmdir removes nothing else
}
