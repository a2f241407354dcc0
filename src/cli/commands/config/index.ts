/** `msgctl config …`: one module per verb; the settings themselves are in src/cli/config/settings.ts. */
import type { Command } from 'commander';
import { examples, type Act } from '../kit.js';
import * as get from './get.js';
import * as set from './set.js';
import * as unset from './unset.js';
import * as list from './list.js';

export function registerConfig(program: Command, act: Act): void {
  const config = program
    .command('config')
    .description('Read and change the settings of a profile (region, date order, default number, …), checked before they are stored');
  examples(config, ['msgctl config list', 'msgctl config set region GB', 'msgctl --profile prod config get default_from']);
  for (const verb of [get, set, unset, list]) verb.register(config, act);
}
