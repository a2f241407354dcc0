import type { Command } from 'commander';
import { examples, positiveInt, type Act } from './kit.js';

interface StaffMember {
  id: string;
  name: string;
  email: string;
  role: string;
}

/** `msgctl staff list`: the organization's staff directory (GET /staff; OAuth), e.g. to pick a participant. */
export function registerStaff(program: Command, act: Act): void {
  const staff = program.command('staff').description('The organization\'s staff directory (OAuth)');
  examples(staff, ['msgctl staff list']);

  const list = staff
    .command('list')
    .description('List the organization\'s staff (GET /staff)')
    .option('--limit <n>', 'print at most this many people', positiveInt, 50)
    .option('--all', 'print everyone, following all pages')
    .action(
      act(async (ctx, flags: { limit: number; all?: boolean }) => {
        const client = await ctx.client();
        const rows = client.paginate<StaffMember>('/staff', {}, { limit: flags.all ? undefined : flags.limit, signal: ctx.signal });
        await ctx.out.list(
          rows,
          [
            { header: 'id', value: (u) => u.id },
            { header: 'name', value: (u) => u.name },
            { header: 'role', value: (u) => u.role },
            { header: 'email', value: (u) => u.email },
          ],
          { empty: 'No staff.' },
        );
      }),
    );
  examples(list, ['msgctl staff list', 'msgctl staff list --json | jq -r "select(.role == \\"admin\\") | .id"']);
}
