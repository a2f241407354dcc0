/** `msgctl messages …`: reading patient traffic, replies and reactions; one module per verb. */
import type { Command } from 'commander';
import { examples, type Act } from '../kit.js';
import * as list from './list.js';
import * as get from './get.js';
import * as replies from './replies.js';
import * as react from './react.js';
import * as unreact from './unreact.js';

export function registerMessages(program: Command, act: Act): void {
  const messages = program.command('messages').description('Read messages in patient conversations');
  examples(messages, [
    'msgctl messages list --after yesterday',
    'msgctl messages list --after 2026-11-01 --all --json | jq -r .body',
    'msgctl messages list --after 1h --follow',
  ]);
  for (const verb of [list, get, replies, react, unreact]) verb.register(messages, act);
}
