/**
 * `msgctl sandbox`: start the server, print how to use it (one JSON line with
 * --json), optionally write a "sandbox" profile, and run until Ctrl-C.
 */
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';

export interface SandboxFlags {
  port: number;
  data?: string;
  seed: number;
  chaos?: string;
  rateLimit: number;
  timeScale: number;
  writeProfile?: boolean;
  seedMessages?: number;
}

export async function runSandboxCommand(ctx: Context, flags: SandboxFlags): Promise<number> {
  if (!Number.isInteger(flags.port) || flags.port < 0 || flags.port > 65535) throw new UsageError('--port must be 0–65535.');
  // Patient data and keys, and SQLite replays whatever FILE-wal holds: never another user's.
  const dataFile = flags.data === undefined ? undefined : await checkedDataFile(flags.data);
  const { startSandbox } = await import('../../../sandbox/entry.js');
  let sandbox;
  try {
    sandbox = await startSandbox({
      port: flags.port,
      dataFile,
      seed: flags.seed,
      chaos: flags.chaos,
      rateLimit: flags.rateLimit,
      timeScale: flags.timeScale,
      seedMessages: flags.seedMessages,
      signal: ctx.signal,
      log: ctx.opts.verbose ? (line) => ctx.io.stderr.write(`[sandbox] ${line}\n`) : undefined,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`Port ${flags.port} is already in use: pick another with --port (0 for any free one).`);
    if (/chaos/i.test((err as Error).message)) throw new UsageError((err as Error).message);
    if ((err as Error).name === 'SandboxDataError') throw new UsageError((err as Error).message);
    if (flags.data && (code === 'ENOENT' || code === 'EACCES' || code === 'EROFS' || code === 'ENOTDIR')) {
      throw new UsageError(`Cannot write --data ${flags.data}: ${(err as Error).message}`);
    }
    throw err;
  }
  const c = sandbox.credentials;
  if (flags.writeProfile) {
    const config = await ctx.config();
    const { saveStoredCredential } = await import('../../auth/credentials.js');
    // A sandbox key is not a real secret, and the sandbox must work on machines without a keychain.
    await saveStoredCredential(ctx.env, config, 'sandbox', { kind: 'api_key', api_key: c.api_key }, 'file', { name: 'Sandbox full access' });
    await config.updateProfile('sandbox', {
      base_url: sandbox.baseUrl,
      client_id: c.oauth_client_id,
      organization: undefined,
    });
    // So `msgctl --profile sandbox login` needs no prompt for the sandbox app's secret.
    const { storeClientSecret } = await import('../../auth/oauth-client-secret.js');
    await storeClientSecret(ctx.env, 'file', 'sandbox', c.oauth_client_id, c.oauth_client_secret);
  }
  const info = {
    base_url: sandbox.baseUrl,
    origin: sandbox.origin,
    ...c,
    profile_written: Boolean(flags.writeProfile),
  };
  if (ctx.opts.json) {
    await ctx.out.json(info);
  } else {
    const { setVariablesPhrase } = await import('../../output/platform-words.js');
    // Every line within 80 columns, so no key or secret is broken across lines on a terminal.
    const more = ' '.repeat(19);
    const lines = [
      `msgctl sandbox listening on ${sandbox.origin}`,
      `  base URL         ${sandbox.baseUrl}`,
      `  API key          ${c.api_key}   every scope`,
      `  limited key      ${c.limited_api_key}`,
      `${more}messages.write and patients.read only`,
      `  other org's key  ${c.other_org_api_key}`,
      `  default number   ${c.phone_numbers[0]}`,
      `  OAuth client     ${c.oauth_client_id}`,
      `  client secret    ${c.oauth_client_secret}`,
      `  sign in as       ${c.admin.email} (org admin)`,
      `${more}or ${c.staff.email} (staff), password "${c.admin.password}"`,
      ...(flags.writeProfile
        ? ['  profile          "sandbox" written: try `msgctl --profile sandbox org`']
        : ['  tip              add --write-profile, or', `${more}${setVariablesPhrase(['MSGCTL_BASE_URL', 'MSGCTL_API_KEY'])}`]),
      'Press Ctrl-C to stop.',
    ];
    ctx.io.stderr.write(lines.join('\n') + '\n');
  }
  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sandbox.close();
  ctx.out.info('Sandbox stopped.');
  return 0;
}

async function checkedDataFile(path: string): Promise<string> {
  const { ownNamedFile } = await import('../../util/own-files.js');
  return ownNamedFile(path, ['-wal', '-shm', '-journal'], '--data');
}
