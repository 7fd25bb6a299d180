import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ask, exited, nextMessage } from './child-ipc.js';

type Reply = { type: 'pong'; n: number } | { type: 'other' } | { type: 'failed'; message: string };

/** Enough of a ChildProcess for the IPC helpers: messages, exit, send. */
function fakeChild(onSend: (child: EventEmitter, message: unknown) => void = () => undefined): ChildProcess {
  const child = Object.assign(new EventEmitter(), { exitCode: null, signalCode: null, sent: [] as unknown[] });
  return Object.assign(child, {
    send: (message: unknown) => (onSend(child, message), true),
  }) as unknown as ChildProcess;
}

describe('child IPC', () => {
  it('waits past other kinds for the one asked, or any of several', async () => {
    const child = fakeChild((c) =>
      setImmediate(() => {
        c.emit('message', { type: 'other' });
        c.emit('message', { type: 'pong', n: 7 });
      }),
    );
    await expect(ask<Reply, 'pong'>(child, { type: 'ping' }, 'pong')).resolves.toEqual({ type: 'pong', n: 7 });
    const either = nextMessage<Reply, 'pong' | 'failed'>(child, ['pong', 'failed']);
    child.emit('message', { type: 'failed', message: 'no' });
    await expect(either).resolves.toEqual({ type: 'failed', message: 'no' });
    expect(child.listenerCount('message')).toBe(0);
  });

  it('rejects when the child exits first, and after its time limit', async () => {
    const child = fakeChild();
    const reply = nextMessage<Reply, 'pong'>(child, 'pong');
    child.emit('exit', 3, null);
    await expect(reply).rejects.toThrow('the child exited (code 3) before sending "pong"');
    await expect(nextMessage<Reply, 'pong'>(fakeChild(), 'pong', 20)).rejects.toThrow('sent no "pong" within 20 ms');
  });

  it('exited resolves at once for a child already gone', async () => {
    const gone = Object.assign(fakeChild(), { exitCode: 0 });
    await expect(exited(gone)).resolves.toBeUndefined();
  });
});
