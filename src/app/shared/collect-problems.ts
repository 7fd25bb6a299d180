/**
 * @module app/shared/collect-problems
 * Reading several inputs and listing every problem of all of them at once (style.md rule 9):
 * each reader runs, its InputError's lines or a ToolkitError's message are gathered, anything
 * else (a bug) goes on up.
 */
import { InputError, ToolkitError } from '../../errors.js';

export interface ProblemCollector {
  readonly problems: string[];
  /** Runs `work`; on an input problem records it and returns undefined. */
  collect<T>(work: () => Promise<T>): Promise<T | undefined>;
}

export function createProblemCollector(): ProblemCollector {
  const problems: string[] = [];
  return {
    problems,
    async collect(work) {
      try {
        return await work();
      } catch (error) {
        if (error instanceof InputError) problems.push(...error.problems);
        else if (error instanceof ToolkitError) problems.push(error.message);
        else throw error;
        return undefined;
      }
    },
  };
}
