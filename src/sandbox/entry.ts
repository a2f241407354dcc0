/**
 * The one door from the CLI into the sandbox: `msgctl sandbox` imports this
 * module lazily, and nothing else under src/sandbox (enforced by
 * .dependency-cruiser.cjs). Tests and benchmarks may use the rest directly.
 */
export { startSandbox, type RunningSandbox } from './start.js';
export type { SandboxOptions } from './context.js';
