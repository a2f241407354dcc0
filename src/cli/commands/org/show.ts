/** `msgctl org`: the organization the credential belongs to (GET /organization). */
import { FIELDS } from '../../../contract/api.js';
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act, formatOptions } from '../kit.js';
import { ORGANIZATION } from '../../api/shapes.js';

export type OrgShowOptions = Record<string, never>;

export async function run(ctx: Context, _opts: OrgShowOptions = {}): Promise<void> {
  const organization = await (await ctx.client()).get('/organization', undefined, ctx.signal, ORGANIZATION);
  await ctx.out.resource(organization, [
    { header: 'id', value: (o) => o.id },
    { header: 'name', value: (o) => o.name },
  ]);
}

export function registerOrg(program: Command, act: Act, runF: typeof run = run): void {
  const org = program
    .command('org')
    .description('Show the organization the credential belongs to (GET /organization)')
    .action(act((ctx) => runF(ctx)));
  formatOptions(org, FIELDS.organization);
  examples(org, ['msgctl org', 'msgctl org --json | jq -r .name']);
}
