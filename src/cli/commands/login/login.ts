/** `msgctl login`: browser sign-in as an org admin (OAuth 2.0 + PKCE); the flow is in src/cli/auth/login.ts. */
import type { Command } from 'commander';
import type { LoginFlags } from '../../auth/login.js';
import type { Context } from '../../context.js';
import { examples, portNumber, type Act } from '../kit.js';

export type LoginOptions = LoginFlags;

export async function run(ctx: Context, opts: LoginOptions): Promise<void> {
  const { runLogin } = await import('../../auth/login.js');
  await runLogin(ctx, opts);
}

export function registerLogin(program: Command, act: Act, runF: typeof run = run): void {
  const login = program
    .command('login')
    .description('Log in as an org admin in the browser (OAuth 2.0 with PKCE) and store the session for the profile')
    .option('--client-id <id>', 'OAuth app client id (env MSGCTL_CLIENT_ID, else the profile\'s client_id)')
    .option('--scopes <scopes>', 'space-separated scopes to ask for (default: every messages/patients scope + offline_access)')
    .option('--port <n>', 'port for the local callback on 127.0.0.1 (default: any free port; fix it to forward it with ssh -L)', portNumber)
    .option('--no-browser', 'print the sign-in URL instead of opening a browser (automatic over SSH or without a display); then paste the URL the browser ended on, or let the callback arrive')
    .option('--insecure-storage', 'store the tokens in a file only you can read instead of the OS keychain (mode 0600; on Windows in %LOCALAPPDATA%, which does not roam)')
    .action(act((ctx, flags: LoginOptions) => runF(ctx, flags)));
  examples(login, [
    'msgctl login                                   # opens the browser; client secret from MSGCTL_CLIENT_SECRET or a prompt',
    'msgctl --profile sandbox login --no-browser    # prints the URL; paste back the URL the browser ends on',
    'ssh -L 8765:127.0.0.1:8765 clinic-server       # then, on the server: msgctl login --no-browser --port 8765',
    'msgctl login --scopes "messages.read messages.write offline_access" --port 8765',
  ]);
}
