/** `msgctl conversations …`: patient conversations, their messages and participants; one module per verb. */
import type { Command } from 'commander';
import { examples, type Act } from '../kit.js';
import * as list from './list.js';
import * as get from './get.js';
import * as messages from './messages.js';
import * as participants from './participants.js';
import * as participantsAdd from './participants-add.js';
import * as participantsRemove from './participants-remove.js';

export function registerConversations(program: Command, act: Act): void {
  const conversations = program.command('conversations').description('List and show patient conversations');
  examples(conversations, ['msgctl conversations list --unread', 'msgctl conversations get "$CONVERSATION_ID"']);
  for (const verb of [list, get, messages]) verb.register(conversations, act);
  const participantsCmd = participants.register(conversations, act);
  participantsAdd.register(participantsCmd, act);
  participantsRemove.register(participantsCmd, act);
}
