/**
 * Hidden `msgctl __complete KIND`: what the completion scripts ask for when
 * TAB is pressed on a value only msgctl knows (src/cli/completion/). One
 * candidate per line, `value<TAB>description`. Bounded: one page, a 2 s
 * request timeout, no retries and a 3 s deadline; any failure prints nothing
 * and exits 0, since a completion must never print an error into the prompt.
 *
 * A value offered here is typed into the user's shell: bash's `compgen -W` expands
 * `$(…)`, `~` and `{a,b}` in it, and every shell's menu prints it to the terminal. So
 * only what a value can be is offered: a campaign or conversation id is a UUID, an import
 * id a plain token (`imp_…`; api-spec.md gives it as a string), a profile a plain name
 * (config.ts). Anything else a service answered, or a file holds, is left out, never
 * passed on; descriptions are made terminal-safe.
 */
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { looksLikeUuid } from '../../util/ids.js';
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
  const line = (value: string, description: unknown) => `${value}\t${cell(typeof description === 'string' ? description : '').replace(/[\t\n]/g, ' ')}`;
  if (kind === 'profiles') {
    const [config, { isProfileName }] = await Promise.all([ctx.config(), import('../../config/config.js')]);
    return config.profileNames().filter(isProfileName).map((name) => line(name, config.profile(name)?.base_url));
  }
  if (kind === 'imports') {
    const { recentImports } = await import('../../imports/recent.js');
    return (await recentImports(ctx.env, await ctx.baseUrl())).filter(isImportId).map((id) => line(id, 'created from this machine'));
  }
  ctx.opts.timeout = 2;
  ctx.opts.retries = 0;
  const client = await ctx.client();
  const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(DEADLINE_MS)]);
  const query = { 'page[limit]': 100 };
  // Read as untrusted: a record that is not an object, or whose id is not an id, is skipped alone.
  if (kind === 'campaigns') {
    const page = await client.get<{ data: unknown }>('/campaigns', query, signal);
    return withIds(page.data).map((c) => line(c.id, typeof c.name === 'string' ? `${c.name} (${typeof c.status === 'string' ? c.status : '?'})` : ''));
  }
  const page = await client.get<{ data: unknown }>('/patient-conversations', query, signal);
  return withIds(page.data).map((c) => line(c.id, c.title));
}

const isId = (value: unknown): value is string => typeof value === 'string' && looksLikeUuid(value);
/** Letters, digits, `_` and `-`, starting with a letter or digit: nothing a shell reads as more than text. */
const isImportId = (value: string) => /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(value);

type Listed = { id: string } & Record<string, unknown>;

/** The records of a page whose `id` is an id (a page that is not a list has none). */
function withIds(records: unknown): Listed[] {
  if (!Array.isArray(records)) return [];
  return records.filter((r): r is Listed => typeof r === 'object' && r !== null && isId((r as { id?: unknown }).id));
}

export function registerCompleteValues(program: Command, act: Act, runF: typeof run = run): void {
  const complete = program
    .command('__complete', { hidden: true })
    .description('Print completion candidates (value<TAB>description per line) for the shell completion scripts')
    .addArgument(new Argument('<kind>', DYNAMIC_VALUES.join(', ')).argParser(choices(DYNAMIC_VALUES)))
    .action(act((ctx, kind: DynamicValues) => runF(ctx, { kind })));
  examples(complete, ['msgctl __complete campaigns   # what TAB offers after `msgctl campaigns get`']);
}
