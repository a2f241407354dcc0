// Preload (`node --import ./test/helpers/load-trace.mjs …`): records every module the
// process loads — ESM and CommonJS, ours and node_modules' — with the time it was
// first asked for, and writes them as JSON Lines to $MSGCTL_LOAD_TRACE at exit,
// followed by Node's own modules loaded by then (`{"builtin":"net"}`).
// Used by test/e2e/light-commands.test.ts, and by hand to see what a command pulls in:
//   MSGCTL_LOAD_TRACE=/tmp/t node --import ./test/helpers/load-trace.mjs bin/msgctl.js org --json
// Built-ins from process.getBuiltinModule: the ESM facade of node:fs would load Node's
// stream modules itself, and the trace must not add what it reports.
const { registerHooks } = process.getBuiltinModule('node:module');
const { appendFileSync } = process.getBuiltinModule('node:fs');

const out = process.env.MSGCTL_LOAD_TRACE;
/** @type {{ url: string, ms: number }[]} */
const seen = [];
// process.hrtime, not performance.now(): the performance global loads perf_hooks, which the trace must not add.
const t0 = process.hrtime.bigint();
registerHooks({
  load(url, context, nextLoad) {
    if (!url.startsWith('node:')) seen.push({ url, ms: Math.round(Number(process.hrtime.bigint() - t0) / 1e5) / 10 });
    return nextLoad(url, context);
  },
});
process.on('exit', () => {
  // An internal list of what Node has loaded (undocumented, stable since Node 0.x).
  const loaded = /** @type {string[]} */ (/** @type {any} */ (process).moduleLoadList);
  const builtins = loaded.filter((m) => m.startsWith('NativeModule ')).map((m) => ({ builtin: m.slice('NativeModule '.length) }));
  if (out) appendFileSync(out, [...seen, ...builtins].map((s) => JSON.stringify(s)).join('\n') + '\n');
});
