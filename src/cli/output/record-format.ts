/**
 * What `--json FIELDS`, `--jq` and `--template` make of each record printed
 * in JSON mode (json-fields.ts, jq.ts, template.ts), prepared once before the
 * command sends anything. Output destined for a terminal has its control
 * characters shown as escapes (terminal-text.ts), as every text from data.
 */
import { CliError } from '../errors.js';
import { stringifyWellFormed, terminalSafe } from './terminal-text.js';
import { checkFields, parseJsonFields, pickFields } from './json-fields.js';
import type { JqFilter } from './jq.js';
import type { RenderRecord } from './template.js';

export interface RecordFormat {
  /** True when raw JSON Lines can be handed over as text (jq without field selection): nothing is parsed. */
  readonly takesJsonText: boolean;
  /** Text for stdout for these records. */
  format(records: unknown[]): string;
  /** Text for stdout for these JSON Lines (only when takesJsonText). */
  formatJsonText(lines: string): string;
  /** After the last record: jq errors (the first few already shown on stderr) end the command with 1; thrown once. */
  finish(): void;
}

/** jq's messages shown on stderr as they come; the rest are counted. */
const JQ_MESSAGES_SHOWN = 5;

export async function prepareRecordFormat(
  flags: { jsonFields?: string; jq?: string; template?: string },
  known: readonly string[] | undefined,
  terminal: boolean,
  /** Where jq's own error messages go (stderr). */
  onJqError: (message: string) => void,
): Promise<RecordFormat> {
  if (flags.jq !== undefined && flags.template !== undefined) {
    const { UsageError } = await import('../errors.js');
    throw new UsageError('--jq and --template both shape the output: give one of them.');
  }
  const fields = flags.jsonFields === undefined ? undefined : parseJsonFields(flags.jsonFields, known);
  const jq: JqFilter | undefined = flags.jq === undefined ? undefined : await (await import('./jq.js')).compileJq(flags.jq);
  const template: RenderRecord | undefined =
    flags.template === undefined ? undefined : (await import('./template.js')).compileTemplate(flags.template, fields ?? known);
  const forPerson = (text: string) => (terminal ? terminalSafe(text, { keepLines: true }) : text);
  /** jq's first error message, for the error that ends the command (the first few went by on stderr). */
  let jqError: string | undefined;
  /** How many records jq failed on: it goes on with the next record after each. */
  let jqFailures = 0;
  let checked = known !== undefined;

  const pick = (records: unknown[]) => {
    if (!fields) return records;
    if (!checked && records.length) {
      // No field list known in advance (msgctl api): the first record's fields are the ones there are.
      const first = records[0];
      if (first && typeof first === 'object' && !Array.isArray(first)) checkFields(fields, Object.keys(first));
      checked = true;
    }
    return records.map((r) => pickFields(r, fields!));
  };
  /** Records given to jq before this page: jq numbers the lines of each page from 1. */
  let recordsBefore = 0;
  const runJq = (text: string, count: number) => {
    // One record per line, each line ended (jq counts the last one only when it is), so jq's
    // `(at /dev/stdin:N)` is the page's Nth record, said as the whole output's.
    const { stdout, errors: raw } = jq!.run(text.endsWith('\n') ? text : `${text}\n`);
    const errors = raw.replace(/\(at \/dev\/stdin:(\d+)\)/g, (_, line: string) => `(at record ${recordsBefore + Number(line)})`);
    recordsBefore += count;
    if (errors) {
      // jq's stderr: a `jq: error …` message per record it failed on (its text may run over more
      // lines, which go with it), and `debug` lines, which fail nothing and all go by (so does
      // other `jq: ` output; a line without a prefix, such as `stderr`'s, goes with the message
      // before it). A program that fails on every record would fill the screen: the first few
      // failures are shown, and the end of the command says how many there were.
      const shown: string[] = [];
      let showing = true;
      for (const line of errors.split('\n')) {
        if (line.startsWith('jq: error')) {
          jqError ??= line;
          jqFailures++;
          showing = jqFailures <= JQ_MESSAGES_SHOWN;
        } else if (line.startsWith('["DEBUG:"') || line.startsWith('jq: ')) showing = true;
        if (showing) shown.push(line);
      }
      if (shown.length) onJqError(shown.join('\n'));
    }
    return forPerson(stdout && !stdout.endsWith('\n') ? stdout + '\n' : stdout);
  };
  return {
    takesJsonText: jq !== undefined && fields === undefined,
    format(records) {
      const picked = pick(records);
      if (jq) return runJq(picked.map((r) => stringifyWellFormed(r)).join('\n'), picked.length);
      if (template) return forPerson(picked.map(template).join(''));
      return picked.map((r) => stringifyWellFormed(r) + '\n').join('');
    },
    formatJsonText(lines) {
      return runJq(lines, countLines(lines));
    },
    finish() {
      if (jqError !== undefined) {
        const many = jqFailures === 1 ? 'one record' : `${jqFailures} records${jqFailures > JQ_MESSAGES_SHOWN ? ` (the first ${JQ_MESSAGES_SHOWN} shown)` : ''}`;
        const first = jqError;
        // Said once: a list checks as it ends, and the command's end asks again.
        jqError = undefined;
        throw new CliError(`jq failed on ${many}, whose output is missing (first: ${first}).`, undefined, [], 'jq_error');
      }
    },
  };
}

/** How many JSON Lines a text holds (the last one may lack its newline). */
function countLines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return text.length > 0 && !text.endsWith('\n') ? count + 1 : count;
}
