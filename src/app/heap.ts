/**
 * @module app/heap
 * How much memory this process may use: V8's heap limit (set by --max-old-space-size, else from
 * the machine's memory). Plans and schedules are refused with their size when they would not fit.
 */
import { getHeapStatistics } from 'node:v8';

export const heapLimitBytes = (): number => getHeapStatistics().heap_size_limit;
