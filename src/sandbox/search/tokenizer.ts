/**
 * Splits a search query into tokens. Lexical rules (the grammar is in parser.ts):
 *
 * - Whitespace separates terms. `(` and `)` are tokens of their own and also end a word.
 * - `"…"` is a phrase; inside it `\"` is a literal quote and `\\` a literal backslash.
 * - A word is a run of anything else. `-` starts a negation only at the start of a
 *   term, so `follow-up` stays one word; a `-` that is not directly followed by a
 *   term is an error rather than a silent search for a dash.
 * - `OR` (uppercase, a whole word) is the operator; `or` and `"OR"` are text.
 * - `name:value` at the start of a term is a qualifier. The value is read right
 *   after the colon as a word or a phrase, never as an operator, so `from:OR`
 *   looks for a sender called "OR". No whitespace is allowed around the colon.
 *   A name must be letters (or `_`), so `10:30` is an ordinary word.
 */
import { QueryParseError } from './errors.js';

export interface QualifierValue {
  text: string;
  quoted: boolean;
}

export type Token =
  | { type: 'word'; text: string; pos: number }
  | { type: 'phrase'; text: string; pos: number }
  /** `value` is null when nothing usable follows the colon; the parser reports it. */
  | { type: 'qualifier'; name: string; pos: number; value: QualifierValue | null; valuePos: number }
  | { type: 'minus'; pos: number }
  | { type: 'or'; pos: number }
  | { type: 'lparen'; pos: number }
  | { type: 'rparen'; pos: number }
  | { type: 'eof'; pos: number };

const QUALIFIER_NAME = /[A-Za-z_]+:/y;

function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && /\s/.test(ch);
}

/** True where a word would end: whitespace, a quote, a parenthesis, or the end. */
function endsWord(ch: string | undefined): boolean {
  return ch === undefined || ch === '"' || ch === '(' || ch === ')' || isSpace(ch);
}

export function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;

  const readPhrase = (): string => {
    const start = i;
    let text = '';
    i++; // opening quote
    while (i < query.length) {
      const ch = query[i]!;
      if (ch === '"') {
        i++;
        return text;
      }
      if (ch === '\\' && (query[i + 1] === '"' || query[i + 1] === '\\')) {
        text += query[i + 1];
        i += 2;
        continue;
      }
      text += ch;
      i++;
    }
    throw new QueryParseError(`unterminated quote starting at position ${start}`, start);
  };

  const readWord = (): string => {
    const start = i;
    while (!endsWord(query[i])) i++;
    return query.slice(start, i);
  };

  while (i < query.length) {
    const ch = query[i]!;
    const pos = i;
    if (isSpace(ch)) {
      i++;
    } else if (ch === '(') {
      tokens.push({ type: 'lparen', pos });
      i++;
    } else if (ch === ')') {
      tokens.push({ type: 'rparen', pos });
      i++;
    } else if (ch === '"') {
      tokens.push({ type: 'phrase', text: readPhrase(), pos });
    } else if (ch === '-') {
      const next = query[i + 1];
      if (next === undefined || next === ')' || isSpace(next)) {
        throw new QueryParseError(`expected an expression right after "-" at position ${pos}`, pos);
      }
      tokens.push({ type: 'minus', pos });
      i++;
    } else {
      QUALIFIER_NAME.lastIndex = i;
      const qualifier = QUALIFIER_NAME.exec(query);
      if (qualifier) {
        const name = qualifier[0].slice(0, -1);
        i += qualifier[0].length;
        const valuePos = i;
        let value: QualifierValue | null = null;
        if (query[i] === '"') value = { text: readPhrase(), quoted: true };
        else if (!endsWord(query[i])) value = { text: readWord(), quoted: false };
        tokens.push({ type: 'qualifier', name, pos, value, valuePos });
      } else {
        const text = readWord();
        tokens.push(text === 'OR' ? { type: 'or', pos } : { type: 'word', text, pos });
      }
    }
  }
  tokens.push({ type: 'eof', pos: query.length });
  return tokens;
}
