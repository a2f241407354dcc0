/**
 * Message templates for `msgctl send --csv`: `{column}` is replaced by that
 * column's value in each row; `{{` and `}}` stand for literal braces.
 *
 * A placeholder names a CSV column exactly, or else the one column whose name
 * is the same ignoring case, spaces and punctuation (`{first_name}` finds
 * "First Name"). A placeholder that finds no column, or several, is a usage
 * error before any row is read: no message of the batch could be right.
 * An empty value makes only that row invalid.
 */
import { UsageError } from '../errors.js';
import { normaliseHeader } from '../csv/patient-columns.js';

export type TemplatePart = { kind: 'text'; text: string } | { kind: 'placeholder'; name: string };

export type RenderResult = { ok: true; body: string } | { ok: false; problems: string[] };

export interface BoundTemplate {
  /** Distinct columns the template reads, as written in the header. */
  readonly columns: readonly string[];
  render(record: Readonly<Record<string, string>>): RenderResult;
}

/** Splits a template into text and placeholders; throws a UsageError for unbalanced braces. */
export function parseTemplate(source: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let text = '';
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    const next = source[i + 1];
    if ((ch === '{' && next === '{') || (ch === '}' && next === '}')) {
      text += ch;
      i += 2;
    } else if (ch === '}') {
      throw new UsageError(`--template: "}" at character ${i + 1} closes no placeholder`, [ESCAPE_HINT]);
    } else if (ch === '{') {
      const close = source.indexOf('}', i + 1);
      const open = source.indexOf('{', i + 1);
      if (close < 0 || (open >= 0 && open < close)) {
        throw new UsageError(`--template: "{" at character ${i + 1} is never closed`, [ESCAPE_HINT]);
      }
      const name = source.slice(i + 1, close).trim();
      if (name === '') throw new UsageError(`--template: empty placeholder "{}" at character ${i + 1}`, [ESCAPE_HINT]);
      if (text) parts.push({ kind: 'text', text });
      text = '';
      parts.push({ kind: 'placeholder', name });
      i = close + 1;
    } else {
      text += ch;
      i += 1;
    }
  }
  if (text) parts.push({ kind: 'text', text });
  return parts;
}

const ESCAPE_HINT = 'Placeholders look like {first_name}; write {{ and }} for literal braces.';

/** Finds the header a placeholder means: exact name first, then the unique loose match. */
export function findColumn(headers: readonly string[], name: string): { header: string } | { problem: string } {
  if (headers.includes(name)) return { header: name };
  const wanted = normaliseHeader(name);
  const matches = headers.filter((header) => normaliseHeader(header) === wanted);
  if (matches.length === 1) return { header: matches[0]! };
  if (matches.length > 1) return { problem: `matches several columns (${quoted(matches)}); use the exact name` };
  return { problem: 'has no such column' };
}

/** Resolves every placeholder against the CSV header; throws a UsageError naming each one that fails. */
export function bindTemplate(parts: readonly TemplatePart[], headers: readonly string[]): BoundTemplate {
  const problems: string[] = [];
  const bound: Array<{ text: string } | { header: string; name: string }> = [];
  for (const part of parts) {
    if (part.kind === 'text') {
      bound.push({ text: part.text });
      continue;
    }
    const found = findColumn(headers, part.name);
    if ('problem' in found) problems.push(`{${part.name}} ${found.problem}`);
    else bound.push({ header: found.header, name: part.name });
  }
  if (problems.length) {
    throw new UsageError(`--template: ${[...new Set(problems)].join('; ')}`, [`Columns in the file: ${quoted(headers)}.`, ESCAPE_HINT]);
  }
  const columns = [...new Set(bound.flatMap((b) => ('header' in b ? [b.header] : [])))];
  return {
    columns,
    render(record) {
      let body = '';
      let empty: string[] | undefined;
      for (const piece of bound) {
        if ('text' in piece) {
          body += piece.text;
          continue;
        }
        const value = record[piece.header] ?? '';
        if (value.trim() === '') (empty ??= []).push(`{${piece.name}} is empty (column "${piece.header}")`);
        body += value;
      }
      return empty ? { ok: false, problems: [...new Set(empty)] } : { ok: true, body };
    },
  };
}

function quoted(values: readonly string[]): string {
  return values.map((v) => `"${v}"`).join(', ');
}
