/** `msgctl campaigns recipients list|add|remove`: one module per verb. */
import type { Command } from 'commander';
import { examples, type Act } from '../../kit.js';
import * as list from './list.js';
import * as add from './add.js';
import * as remove from './remove.js';

export function registerCampaignRecipients(campaigns: Command, act: Act): void {
  const recipients = campaigns.command('recipients').description('List, add and remove the patients a campaign goes to');
  examples(recipients, ['msgctl campaigns recipients add "$ID" --csv patients.csv', 'msgctl campaigns recipients list "$ID" --status failed']);
  for (const verb of [list, add, remove]) verb.register(recipients, act);
}
