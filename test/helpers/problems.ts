import { ProblemError } from '../../src/sandbox/problem.js';

/** Runs sandbox domain code that must refuse, and returns the problem it threw. */
export function problemOf(fn: () => unknown): ProblemError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('expected a ProblemError');
}
