/** `msgctl staff list`: the organization's staff directory (GET /staff; OAuth), e.g. to pick a participant. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { allOption, wideOption, examples, limitOption, listLimit, type Act, type ListFlags } from '../kit.js';

interface StaffMember {
  id: string;
  name: string;
  email: string;
  role: string;
}

export type StaffListOptions = ListFlags;

export async function run(ctx: Context, opts: StaffListOptions): Promise<void> {
  const client = await ctx.client();
  const rows = client.paginate<StaffMember>('/staff', {}, { limit: listLimit(opts), signal: ctx.signal });
  await ctx.out.list(
    rows,
    [
      { header: 'id', value: (u) => u.id, drop: 1 },
      { header: 'name', value: (u) => u.name },
      { header: 'role', value: (u) => u.role },
      { header: 'email', value: (u) => u.email },
    ],
    { empty: 'No staff.' },
  );
}

export function register(staff: Command, act: Act): void {
  const list = staff
    .command('list')
    .description('List the organization\'s staff (GET /staff)')
    .addOption(limitOption('print at most this many people'))
    .addOption(allOption('print everyone, following all pages'))
    .addOption(wideOption())
    .action(act((ctx, flags: StaffListOptions) => run(ctx, flags)));
  examples(list, ['msgctl staff list', 'msgctl staff list --json | jq -r "select(.role == \\"admin\\") | .id"']);
}
