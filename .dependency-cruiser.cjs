/**
 * The three units and the one-way roads between them (docs/architecture.md):
 *   cli ──(lazy, src/sandbox/entry.ts only)──▶ sandbox
 *   cli ──▶ contract ◀── sandbox
 * and no import loops anywhere. `npm run lint:deps` checks it; .ci/run calls that.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import loop: two modules that each need the other are one module, or a seam in the wrong place.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'sandbox-never-imports-cli',
      severity: 'error',
      comment: 'The sandbox judges requests with its own code (the spec), never with the CLI’s helpers.',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'cli-enters-sandbox-only-through-entry',
      severity: 'error',
      comment: 'The CLI starts the sandbox through src/sandbox/entry.ts (from `msgctl sandbox`) and nothing else.',
      from: { path: '^src/cli/' },
      to: { path: '^src/sandbox/', pathNot: '^src/sandbox/entry\\.ts$' },
    },
    {
      name: 'sandbox-entry-is-lazy',
      severity: 'error',
      comment: 'Start-up is lazy: the CLI loads the sandbox only when `msgctl sandbox` runs (await import), never at start.',
      from: { path: '^src/cli/' },
      to: { path: '^src/sandbox/entry\\.ts$', dependencyTypesNot: ['dynamic-import', 'type-only'] },
    },
    {
      name: 'contract-stands-alone',
      severity: 'error',
      comment: 'The contract is what both sides agree on by definition; it depends on neither.',
      from: { path: '^src/contract/' },
      to: { path: '^src/(cli|sandbox)/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'] },
  },
};
