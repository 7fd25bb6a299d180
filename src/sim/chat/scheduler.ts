/**
 * @module sim/chat/scheduler
 * One timer for every scheduled send of the engine: a binary min-heap of tasks by due time, drained
 * by a single setTimeout armed for the earliest. Thousands of open streams then cost one timer, and
 * the sends due in the same millisecond run in one callback (Node corks each socket for the tick, so
 * a stream's packets due together leave in one write). The lag of every task (actual − due) is
 * reported, which is what `send_lag_ms` measures.
 */

/** A unit of work due at `due` (performance.now() milliseconds). `slot` belongs to the scheduler. */
export interface ScheduledTask {
  due: number;
  run(): void;
  slot: number;
}

export interface Scheduler {
  /** Runs `task.run()` once, at or just after `task.due`. Scheduling a task twice is a bug. */
  schedule(task: ScheduledTask): void;
  /** Forgets a task if it is still waiting; harmless otherwise. */
  cancel(task: ScheduledTask): void;
  /** Tasks waiting. */
  readonly size: number;
  /** Clears the timer and forgets every task. */
  close(): void;
}

/** Node's timers have millisecond resolution: a task this close to due runs now rather than a tick late. */
const EARLY_MS = 0.2;

/** Creates a scheduler; `onLag` gets each task's lateness in milliseconds (never negative). */
export function createScheduler(
  onLag: (lagMs: number) => void,
  now: () => number = () => performance.now(),
): Scheduler {
  const heap: ScheduledTask[] = [];
  let timer: NodeJS.Timeout | undefined;
  let armedFor = Infinity;
  let draining = false;

  const arm = (): void => {
    const top = heap[0];
    if (top === undefined || draining) return;
    if (timer !== undefined && top.due >= armedFor) return;
    if (timer !== undefined) clearTimeout(timer);
    armedFor = top.due;
    timer = setTimeout(drain, Math.max(1, Math.ceil(top.due - now())));
  };

  const drain = (): void => {
    timer = undefined;
    armedFor = Infinity;
    draining = true;
    try {
      for (let top = heap[0]; top !== undefined && top.due <= now() + EARLY_MS; top = heap[0]) {
        pop(heap);
        onLag(Math.max(0, now() - top.due));
        top.run();
      }
    } finally {
      draining = false;
      arm();
    }
  };

  return {
    schedule(task) {
      push(heap, task);
      arm();
    },
    cancel(task) {
      if (heap[task.slot] === task) removeAt(heap, task.slot);
    },
    get size() {
      return heap.length;
    },
    close() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      armedFor = Infinity;
      heap.length = 0;
    },
  };
}

function push(heap: ScheduledTask[], task: ScheduledTask): void {
  task.slot = heap.length;
  heap.push(task);
  siftUp(heap, task.slot);
}

function pop(heap: ScheduledTask[]): void {
  removeAt(heap, 0);
}

function removeAt(heap: ScheduledTask[], i: number): void {
  const last = heap.pop() as ScheduledTask;
  if (i === heap.length) {
    last.slot = -1;
    return;
  }
  const removed = heap[i] as ScheduledTask;
  heap[i] = last;
  last.slot = i;
  siftDown(heap, i);
  siftUp(heap, last.slot);
  removed.slot = -1;
}

function siftUp(heap: ScheduledTask[], i: number): void {
  const task = heap[i] as ScheduledTask;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const above = heap[parent] as ScheduledTask;
    if (above.due <= task.due) break;
    heap[i] = above;
    above.slot = i;
    i = parent;
  }
  heap[i] = task;
  task.slot = i;
}

function siftDown(heap: ScheduledTask[], i: number): void {
  const task = heap[i] as ScheduledTask;
  const n = heap.length;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= n) break;
    const right = left + 1;
    const child = right < n && (heap[right] as ScheduledTask).due < (heap[left] as ScheduledTask).due ? right : left;
    const below = heap[child] as ScheduledTask;
    if (below.due >= task.due) break;
    heap[i] = below;
    below.slot = i;
    i = child;
  }
  heap[i] = task;
  task.slot = i;
}
