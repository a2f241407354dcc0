/** `msgctl profiles …`: one module per verb. */
import type { Command } from 'commander';
import { examples, type Act } from '../kit.js';
import * as list from './list.js';
import * as use from './use.js';

export function registerProfiles(program: Command, act: Act): void {
  const profiles = program.command('profiles').description('List the configuration profiles, and choose the default one');
  examples(profiles, ['msgctl profiles list', 'msgctl profiles use sandbox']);
  for (const verb of [list, use]) verb.register(profiles, act);
}
