/** `msgctl auth set-key`: store an API key, read from stdin or a hidden prompt (never argv), checked first. */
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { examples, type Act } from '../kit.js';
import { ORGANIZATION } from '../../api/shapes.js';
import { cell } from '../../output/terminal-text.js';

export interface AuthSetKeyOptions {
  name?: string;
  insecureStorage?: boolean;
}

export async function run(ctx: Context, opts: AuthSetKeyOptions): Promise<void> {
  const [{ readSecret }, { checkBaseUrl }, creds] = await Promise.all([
    import('../../auth/read-secret.js'),
    import('../../api/transport.js'),
    import('../../auth/credentials.js'),
  ]);
  // Refuse a missing or clear-text base URL before asking for the secret.
  const baseUrl = await ctx.baseUrl();
  checkBaseUrl(baseUrl, true);
  const apiKey = await readSecret(ctx, 'API key');
  // Check the key before storing it, so a typo is caught now rather than by tonight's cron job.
  const client = await ctx.clientFor(creds.staticBearer(apiKey));
  const organization = await client.get('/organization', undefined, ctx.signal, ORGANIZATION);
  const profileName = await ctx.profileName();
  const config = await ctx.config();
  const storage = opts.insecureStorage ? 'file' : 'keychain';
  const where = await creds.saveStoredCredential(ctx.env, config, profileName, { kind: 'api_key', api_key: apiKey }, storage, {
    name: opts.name,
    profile: { base_url: baseUrl, organization },
    tooLargeHints: ['Store it in a file only you can read instead: msgctl auth set-key --insecure-storage', 'Or give it to each command in MSGCTL_API_KEY.'],
    notify: (message) => ctx.out.warn(message),
  });
  if (opts.insecureStorage) ctx.out.warn(`the key is stored unencrypted in ${where}; anyone with your user account can read it.`);
  ctx.out.info(`Stored API key${opts.name ? ` "${opts.name}"` : ''} for profile "${profileName}" in ${where}.`);
  if (ctx.out.mode === 'json') await ctx.out.json({ profile: profileName, storage, organization });
  else ctx.out.info(`Organization: ${cell(organization.name)} (${cell(organization.id)})`);
}

export function register(auth: Command, act: Act, runF: typeof run = run): void {
  const setKey = auth
    .command('set-key')
    .description('Store an organization API key for the profile (read from stdin or a hidden prompt, never argv)')
    .option('--name <name>', 'a label for the key, shown by `auth status`')
    .option('--insecure-storage', 'store in a file only you can read instead of the OS keychain (mode 0600; on Windows in %LOCALAPPDATA%, which does not roam)')
    .action(act((ctx, flags: AuthSetKeyOptions) => runF(ctx, flags)));
  examples(setKey, [
    'msgctl auth set-key --name nightly-reminders            # paste at the hidden prompt',
    'printf %s "$KEY" | msgctl --profile prod --base-url https://api.example.com/v1 auth set-key',
    'printf %s "$KEY" | msgctl auth set-key --insecure-storage   # headless box without a keychain',
    '$Key | msgctl auth set-key --name nightly-reminders   # PowerShell',
  ]);
}
