/** `msgctl campaigns …`: one module per verb. */
import type { Command } from 'commander';
import { examples, type Act } from '../kit.js';
import * as create from './create.js';
import * as list from './list.js';
import * as get from './get.js';
import * as update from './update.js';
import * as archive from './archive.js';
import * as unarchive from './unarchive.js';
import * as start from './start.js';
import * as pause from './pause.js';
import * as stop from './stop.js';
import * as del from './delete.js';
import { registerCampaignRecipients } from './recipients/index.js';
import * as watch from './watch.js';

export function registerCampaigns(program: Command, act: Act): void {
  const campaigns = program
    .command('campaigns')
    .description('Send one message to many patients: create, add recipients, start, watch, pause, stop');
  examples(campaigns, [
    'ID=$(msgctl campaigns create --name "Flu shots" --body-file flu.txt --json | jq -r .id)',
    'msgctl campaigns recipients add "$ID" --csv patients.csv && msgctl campaigns start "$ID" --yes && msgctl campaigns watch "$ID"   # --yes: a script has no terminal to ask on',
  ]);
  for (const verb of [create, list, get, update, archive, unarchive, start, pause, stop, del]) verb.register(campaigns, act);
  registerCampaignRecipients(campaigns, act);
  watch.register(campaigns, act);
}
