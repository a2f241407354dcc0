/**
 * `--seed-messages N`: a large synthetic history, generated directly into the
 * store (no HTTP), for tests and benchmarks. Filled in by the traffic work.
 */
import type { SandboxContext } from '../context.js';

export function seedSyntheticMessages(_sb: SandboxContext, _count: number): void {
  throw new Error('--seed-messages is not available yet');
}
