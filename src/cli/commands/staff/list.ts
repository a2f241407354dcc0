/** `msgctl staff list`: the organization's staff directory (GET /staff; OAuth), e.g. to pick a participant. */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { allOption, wideOption, examples, limitOption, listLimit, type Act, type ListFlags, formatOptions } from '../kit.js';
import { STAFF_MEMBER } from '../../api/shapes.js';

export type StaffListOptions = ListFlags;

export async function run(ctx: Context, opts: StaffListOptions): Promise<void> {
  const client = await ctx.client();
  const rows = client.paginate('/staff', {}, { limit: listLimit(opts), signal: ctx.signal, shape: STAFF_MEMBER });
  await ctx.out.list(
    rows,
    [
      { header: 'id', value: (u) => u.id, id: true },
      { header: 'name', value: (u) => u.name },
      { header: 'role', value: (u) => u.role, drop: 2 },
      { header: 'email', value: (u) => u.email, drop: 1 },
    ],
    { empty: 'No staff.', noun: 'people' },
  );
}

export function register(staff: Command, act: Act, runF: typeof run = run): void {
  const list = staff
    .command('list')
    .description('List the organization\'s staff (GET /staff)')
    .addOption(limitOption('print at most this many people'))
    .addOption(allOption('print everyone, following all pages'))
    .addOption(wideOption())
    .action(act((ctx, flags: StaffListOptions) => runF(ctx, flags)));
  formatOptions(list, FIELDS.staff);
  examples(list, ['msgctl staff list', 'msgctl staff list --json | jq -r "select(.role == \\"admin\\") | .id"']);
}
