/**
 * Hidden `msgctl __complete KIND`: what the completion scripts ask for when
 * TAB is pressed on a value only msgctl knows (src/cli/completion/). One
 * candidate per line, `value<TAB>description`. Bounded: one page, a 2 s
 * request timeout, no retries and a 3 s deadline; any failure prints nothing
 * and exits 0, since a completion must never print an error into the prompt.
 */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { choices, DYNAMIC_VALUES, examples, type Act, type DynamicValues } from '../kit.js';

/** The whole completion, request included, ends by then. */
const DEADLINE_MS = 3_000;

export interface CompleteValuesOptions {
  kind: DynamicValues;
}

export async function run(ctx: Context, opts: CompleteValuesOptions): Promise<void> {
  try {
    const lines = await Promise.race([candidates(ctx, opts.kind), new Promise<string[]>((resolve) => setTimeout(() => resolve([]), DEADLINE_MS).unref())]);
    await ctx.out.write(lines.map((l) => `${l}\n`).join(''));
  } catch {
    // Nothing to offer (no credential, no network): the shell offers nothing, silently.
  }
}

async function candidates(ctx: Context, kind: DynamicValues): Promise<string[]> {
  const { cell } = await import('../../output/terminal-text.js');
  const line = (value: string, description: string) => `${value}\t${cell(description).replace(/[\t\n]/g, ' ')}`;
  if (kind === 'profiles') {
    const config = await ctx.config();
    return config.profileNames().map((name) => line(name, config.profile(name)?.base_url ?? ''));
  }
  if (kind === 'imports') {
    const { recentImports } = await import('../../imports/recent.js');
    return (await recentImports(ctx.env, await ctx.baseUrl())).map((id) => line(id, 'created from this machine'));
  }
  ctx.opts.timeout = 2;
  ctx.opts.retries = 0;
  const client = await ctx.client();
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(DEADLINE_MS)]);
  const query = { 'page[limit]': 100 };
  if (kind === 'campaigns') {
    const page = await client.get<{ data: { id: string; name: string; status: string }[] }>('/campaigns', query, signal);
    return page.data.map((c) => line(c.id, `${c.name} (${c.status})`));
  }
  const page = await client.get<{ data: { id: string; title?: string }[] }>('/patient-conversations', query, signal);
  return page.data.map((c) => line(c.id, c.title ?? ''));
}

export function registerCompleteValues(program: Command, act: Act, runF: typeof run = run): void {
  const complete = program
    .command('__complete', { hidden: true })
    .description('Print completion candidates (value<TAB>description per line) for the shell completion scripts')
    .addArgument(new Argument('<kind>', DYNAMIC_VALUES.join(', ')).argParser(choices(DYNAMIC_VALUES)))
    .action(act((ctx, kind: DynamicValues) => runF(ctx, { kind })));
  examples(complete, ['msgctl __complete campaigns   # what TAB offers after `msgctl campaigns get`']);
}
