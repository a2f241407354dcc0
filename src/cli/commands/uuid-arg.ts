import { InvalidArgumentError } from 'commander';
import { looksLikeUuid } from '../util/ids.js';


/**
 * An argument parser for ids that the API types as UUIDs: a typo is a usage
 * error (exit 2) before any request, and nothing odd ends up in a URL path.
 */
export function uuidArg(what: string) {
  return (value: string): string => {
    if (!looksLikeUuid(value)) throw new InvalidArgumentError(`The ${what} must be a UUID.`);
    return value.toLowerCase();
  };
}
