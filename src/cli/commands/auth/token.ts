/** `msgctl auth token`: the active token on stdout, refreshed first if it is an expiring OAuth token. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act } from '../kit.js';

export type AuthTokenOptions = Record<string, never>;

export async function run(ctx: Context, _opts: AuthTokenOptions = {}): Promise<void> {
  // Through the credential provider, so an expiring OAuth token is refreshed first.
  const provider = await ctx.credentialProvider();
  const header = await provider.authorization();
  const token = header?.replace(/^Bearer\s+/i, '') ?? '';
  if (ctx.out.mode === 'json') await ctx.out.json({ token });
  else await ctx.out.write(token + '\n');
}

export function register(auth: Command, act: Act, runF: typeof run = run): void {
  const token = auth
    .command('token')
    .description('Print the active token on stdout (for scripts: curl -H "Authorization: Bearer $(msgctl auth token)")')
    .action(act((ctx) => runF(ctx)));
  examples(token, ['curl -H "Authorization: Bearer $(msgctl auth token)" "$BASE/organization"']);
}
