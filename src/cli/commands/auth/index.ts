/** `msgctl auth …` and `msgctl logout`: one module per verb. */
import type { Command } from 'commander';
import { examples, type Act } from '../kit.js';
import * as setKey from './set-key.js';
import * as status from './status.js';
import * as token from './token.js';
import * as logout from './logout.js';

export function registerAuth(program: Command, act: Act): void {
  const auth = program.command('auth').description('Manage the stored credential: API keys, status, tokens');
  examples(auth, ['printf %s "$KEY" | msgctl auth set-key --name reminders', '$Key | msgctl auth set-key --name reminders   # PowerShell', 'msgctl auth status']);
  for (const verb of [setKey, status, token]) verb.register(auth, act);
  // A top-level command, but about the same stored credential.
  logout.register(program, act);
}
