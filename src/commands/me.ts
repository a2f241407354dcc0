import type { Command } from 'commander';
import type { Act } from './kit.js';

// Filled in by the work on this command group.
export function registerMe(_program: Command, _act: Act): void {}
