/** `msgctl patients …`: one module per verb. */
import type { Command } from 'commander';
import { examples, type Act } from '../kit.js';
import * as list from './list.js';
import * as get from './get.js';
import * as create from './create.js';
import * as update from './update.js';
import * as del from './delete.js';

export function registerPatients(program: Command, act: Act): void {
  const patients = program.command('patients').description('Find, create, update and delete patient records');
  examples(patients, ['msgctl patients list --phone "(555) 555-0123"', 'msgctl patients get 7d9f…']);
  for (const verb of [list, get, create, update, del]) verb.register(patients, act);
}
