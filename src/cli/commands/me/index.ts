/** `msgctl me`, `me messages [get]`, `me send`: one module per verb. */
import type { Command } from 'commander';
import type { Act } from '../kit.js';
import * as show from './show.js';
import * as messages from './messages.js';
import * as messagesGet from './messages-get.js';
import * as send from './send.js';

export function registerMe(program: Command, act: Act): void {
  const me = show.register(program, act);
  messagesGet.register(messages.register(me, act), act);
  send.register(me, act);
}
