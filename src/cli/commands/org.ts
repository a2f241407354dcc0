import type { Command } from 'commander';
import type { Organization } from '../../contract/api.js';
import { examples, type Act } from './kit.js';

export function registerOrg(program: Command, act: Act): void {
  const org = program
    .command('org')
    .description('Show the organization the credential belongs to (GET /organization)')
    .action(
      act(async (ctx) => {
        const organization = await (await ctx.client()).get<Organization>('/organization');
        await ctx.out.resource(organization, [
          { header: 'id', value: (o) => o.id },
          { header: 'name', value: (o) => o.name },
        ]);
      }),
    );
  examples(org, ['msgctl org', 'msgctl org --json | jq -r .name']);
}
