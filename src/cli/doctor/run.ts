/** `msgctl doctor`: runs the checks (checks.ts, scheduler-path.ts) and prints one line each. */
import type { Context } from '../context.js';
import { ExitCode } from '../exit-codes.js';
import { guarded, type CheckResult } from './check.js';
import { clockCheck, credentialCheck, foldersCheck, keychainCheck, networkCheck, nodeCheck } from './checks.js';
import { installation, schedulerPath } from './scheduler-path.js';
import { packageRoot } from '../util/package-root.js';
import { join } from 'node:path';

export async function runDoctor(ctx: Context): Promise<number> {
  const root = packageRoot();
  const where = installation(ctx.env, root ? join(root, 'bin', 'msgctl.js') : null);
  // Independent and each bounded: side by side, so the doctor takes as long as its slowest check.
  const [scheduler, keychain, network, folders] = await Promise.all([
    guarded('cron PATH', () => schedulerPath(ctx.env, where)),
    guarded('keychain', () => keychainCheck(ctx)),
    networkCheck(ctx).catch((err: Error) => ({ result: { check: 'network', status: 'fail' as const, detail: err.message } as CheckResult, clock: undefined })),
    guarded('folders', () => foldersCheck(ctx)),
  ]);
  const credential = await guarded('credential', () => credentialCheck(ctx));
  const results: CheckResult[] = [nodeCheck(), scheduler, keychain, credential, network.result, clockCheck(network.clock, network.result.status !== 'fail'), folders];
  await print(ctx, results);
  const failed = results.filter((r) => r.status === 'fail').length;
  if (ctx.out.mode !== 'json') {
    const warned = results.filter((r) => r.status === 'warn').length;
    ctx.out.info(failed ? `${failed} problem(s) to fix${warned ? `, ${warned} warning(s)` : ''}.` : warned ? `No problems; ${warned} warning(s).` : 'No problems found.');
  }
  return failed ? ExitCode.Failure : ExitCode.Ok;
}

async function print(ctx: Context, results: CheckResult[]): Promise<void> {
  const { terminalSafe } = await import('../output/terminal-text.js');
  if (ctx.out.mode === 'json') {
    for (const r of results) await ctx.out.json({ check: r.check, status: r.status, detail: r.detail, fix: r.fix ?? null });
    return;
  }
  if (ctx.out.mode === 'plain') {
    const cell = (text: string) => terminalSafe(text).replace(/\t/g, ' ');
    await ctx.out.write(results.map((r) => [r.status, r.check, cell(r.detail), cell(r.fix ?? '')].join('\t') + '\n').join(''));
    return;
  }
  const { wrapWords } = await import('../help/render.js');
  const label = { ok: 'ok  ', warn: 'warn', fail: 'FAIL', skip: 'skip' } as const;
  const width = Math.max(...results.map((r) => r.check.length));
  // The detail wraps to the window under its own column, not back to the left edge. The fix stays
  // one line: it often holds a command or a PATH= line, which a line break would cut when copied.
  const indent = ' '.repeat(width + 8);
  let text = '';
  for (const r of results) {
    text += wrapWords(terminalSafe(r.detail), ctx.out.terminalWidth, `${label[r.status]}  ${r.check.padEnd(width)}  `, indent).join('\n') + '\n';
    if (r.fix && (r.status === 'warn' || r.status === 'fail')) text += `${indent}fix: ${terminalSafe(r.fix)}\n`;
  }
  await ctx.out.write(text);
}
