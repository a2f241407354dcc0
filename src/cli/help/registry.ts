/**
 * The help topics, in the order `msgctl help` lists them. Loaded only by
 * `msgctl help` (commands/help/help.ts), never at start-up; the root help
 * names them from TOPIC_NAMES, which a test holds equal to this list.
 */
import type { HelpTopic } from './topic.js';
import { topic as environment } from './topics/environment.js';
import { topic as exitCodes } from './topics/exit-codes.js';
import { topic as formatting } from './topics/formatting.js';
import { topic as dates } from './topics/dates.js';

export const TOPICS: readonly HelpTopic[] = [environment, exitCodes, formatting, dates];

export function findTopic(name: string): HelpTopic | undefined {
  return TOPICS.find((topic) => topic.name === name);
}
