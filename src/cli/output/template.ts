/**
 * `--template TEXT`: each record through a Mustache template (mustache.js,
 * the reference implementation; its language is documented in
 * `msgctl help formatting` and mustache(5)). `{{first_name}}` is a field,
 * `{{patient.name}}` a nested one, `{{#delivery}}…{{/delivery}}` a section
 * shown when the field is set, `{{^unread}}…{{/unread}}` one shown when it is
 * not. Nothing is HTML-escaped (this is a terminal, not a web page); objects
 * print as JSON; `\t` and `\n` in the template are a tab and a newline; each
 * record's text ends with a newline. A field name the records do not have is
 * exit 2 listing the ones they do, like `--json FIELDS`.
 */
import Mustache from 'mustache';
import { UsageError } from '../errors.js';
import { unknownFieldError } from './json-fields.js';

export type RenderRecord = (record: unknown) => string;

const CONFIG = { escape: (value: unknown) => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value)) };

export function compileTemplate(text: string, fields: readonly string[] | undefined): RenderRecord {
  const template = text.replace(/\\([tn\\])/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : '\\'));
  let tokens: unknown[];
  try {
    tokens = Mustache.parse(template);
  } catch (err) {
    throw new UsageError(`--template: ${(err as Error).message}.`, ['Fields are written {{name}}; sections {{#name}}…{{/name}}. See: msgctl help formatting']);
  }
  if (fields) {
    const unknown = topLevelNames(tokens).filter((name) => !fields.includes(name));
    if (unknown.length) throw unknownFieldError(unknown, fields, '--template');
  }
  return (record) => {
    const out = Mustache.render(template, record, {}, CONFIG);
    return out.endsWith('\n') ? out : out + '\n';
  };
}

/** The first segment of every name the template looks up at the top level (not inside sections, whose names are the section's). */
function topLevelNames(tokens: unknown[]): string[] {
  const names: string[] = [];
  for (const token of tokens as [string, string][]) {
    const [type, value] = token;
    if (type === 'name' || type === '&' || type === '#' || type === '^') {
      if (value !== '.') names.push(value.split('.')[0]!);
    }
  }
  return [...new Set(names)];
}
