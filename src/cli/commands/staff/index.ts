/** `msgctl staff …`: one module per verb. */
import type { Command } from 'commander';
import { examples, type Act } from '../kit.js';
import * as list from './list.js';

export function registerStaff(program: Command, act: Act): void {
  const staff = program.command('staff').description('The organization\'s staff directory (OAuth)');
  examples(staff, ['msgctl staff list']);
  list.register(staff, act);
}
