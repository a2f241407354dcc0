/**
 * The three units and the one-way roads between them (docs/architecture.md):
 *   cli ──(lazy, src/sandbox/entry.ts only)──▶ sandbox
 *   cli ──▶ contract ◀── sandbox
 * the layers inside each unit, and no import loops anywhere. `npm test` checks it first (scripts/test.mjs).
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
      name: 'sandbox-domain-never-imports-http',
      severity: 'error',
      comment:
        'The sandbox’s rules (domain, store, workers, search, validation, webhooks) never know HTTP: the routes and the HTTP layer read requests and hand them typed values (problems in src/sandbox/problem.ts, pages in domain/paging.ts).',
      from: { path: '^src/sandbox/(domain|store|workers|search|validation|webhooks)/' },
      to: { path: '^src/sandbox/(http|routes)/' },
    },
    {
      name: 'cli-infrastructure-never-imports-features',
      severity: 'error',
      comment:
        'The CLI’s infrastructure (API client, credentials, config, output, util) serves every command and knows none: it never imports a command, a feature folder (send/, batch/, campaigns/ …) or the program.',
      from: { path: '^src/cli/(api|auth|config|output|util)/' },
      to: {
        path: '^src/cli/',
        pathNot: ['^src/cli/(api|auth|config|output|util)/', '^src/cli/(context|errors|exit-codes|version)\\.ts$'],
      },
    },
    {
      name: 'api-client-never-imports-output',
      severity: 'error',
      comment: 'Exit codes and error types live in src/cli/exit-codes.ts and errors.ts, which both use; the API client never reaches into rendering (output → api is the one direction).',
      from: { path: '^src/cli/api/' },
      to: { path: '^src/cli/output/' },
    },
    {
      name: 'verbs-load-only-light-modules-at-start',
      severity: 'error',
      comment:
        'program.ts imports every verb module, so what they import at top level is paid by every command (start-up). A verb imports commander, other command modules, errors, the contract and the few light leaf modules listed here; everything it does is `await import(...)`ed in run().',
      from: { path: '^src/cli/commands/' },
      to: {
        dependencyTypesNot: ['dynamic-import', 'type-only'],
        pathNot: [
          '^src/cli/commands/',
          '^src/cli/(context|errors|exit-codes|version)\\.ts$',
          '^src/contract/api\\.ts$',
          '^src/cli/util/(ids|shell-word)\\.ts$',
          '^src/cli/output/terminal-text\\.ts$',
          '^src/cli/api-command/(fields|request-parts)\\.ts$',
          // What each answer must look like (data, and the small function that checks it).
          '^src/cli/api/(shapes|answer-shape)\\.ts$',
          '^node_modules/commander/',
        ],
      },
    },
    {
      name: 'light-modules-stay-light',
      severity: 'error',
      comment: 'The leaf modules verbs may import at top level (rule above) import nothing of ours but the contract and each other, and no npm package.',
      from: { path: ['^src/cli/util/(ids|shell-word)\\.ts$', '^src/cli/output/terminal-text\\.ts$', '^src/cli/api-command/(fields|request-parts)\\.ts$', '^src/cli/(errors|exit-codes|version)\\.ts$', '^src/cli/api/(shapes|answer-shape)\\.ts$'] },
      to: {
        dependencyTypesNot: ['dynamic-import', 'type-only'],
        pathNot: ['^src/contract/api\\.ts$', '^src/cli/util/(ids|shell-word)\\.ts$', '^src/cli/output/terminal-text\\.ts$', '^src/cli/(errors|exit-codes|version)\\.ts$', '^src/cli/api/(shapes|answer-shape)\\.ts$'],
      },
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
