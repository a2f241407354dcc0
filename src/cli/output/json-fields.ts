/**
 * `--json id,first_name`: only those top-level fields of each record, in the
 * order asked, as gh has it. Names are checked against the fields of what the
 * command prints (contract FIELDS) before anything is sent; a command that
 * does not know its records' fields in advance (msgctl api) checks them
 * against the first record.
 */
import { UsageError } from '../errors.js';

export function parseJsonFields(list: string, known: readonly string[] | undefined): string[] {
  const fields = list.split(',').map((f) => f.trim()).filter((f) => f !== '');
  if (fields.length === 0) throw new UsageError('--json takes a comma list of fields, e.g. --json id,name.');
  if (known) checkFields(fields, known);
  return [...new Set(fields)];
}

export function checkFields(fields: readonly string[], known: readonly string[]): void {
  const unknown = fields.filter((f) => !known.includes(f));
  if (unknown.length) throw unknownFieldError(unknown, known, '--json');
}

export function unknownFieldError(unknown: readonly string[], known: readonly string[], flag: string): UsageError {
  const names = unknown.map((f) => `"${f}"`).join(', ');
  return new UsageError(`${flag}: unknown field${unknown.length > 1 ? 's' : ''} ${names}.`, [`Available fields: ${known.join(', ')}`]);
}

/** A copy of `record` with only `fields` (those it has), in that order. */
export function pickFields(record: unknown, fields: readonly string[]): unknown {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return record;
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f in record) out[f] = (record as Record<string, unknown>)[f];
  return out;
}
