/**
 * Recursive-descent parser for the `q` parameter of GET /patient-messages.
 *
 *   query     := orExpr EOF                 -- empty or blank query: matches everything
 *   orExpr    := andExpr ( "OR" andExpr )*  -- OR binds looser than implicit AND
 *   andExpr   := unary ( unary )*           -- juxtaposition = AND
 *   unary     := "-" unary | primary
 *   primary   := "(" orExpr ")" | qualifier | phrase | word
 *   qualifier := NAME ":" (word | phrase)   -- NAME in from, patient, mrn, phone, is
 *
 * So `a b OR c` is `(a AND b) OR c`, and `-(a OR b)` excludes both. The
 * tokenizer reads `NAME:value` as one token because nothing may separate its
 * parts; qualifiers.ts gives it meaning. User-facing rules: docs/search-language.md.
 */
import type { QueryNode } from './ast.js';
import { QueryParseError } from './errors.js';
import { qualifierNode } from './qualifiers.js';
import { tokenize, type Token } from './tokenizer.js';

export function parseQuery(q: string): QueryNode {
  return new Parser(tokenize(q)).parseQuery();
}

function fail(message: string, position: number): never {
  throw new QueryParseError(`${message} at position ${position}`, position);
}

/** Tokens that can begin a `unary`. */
function startsUnary(token: Token): boolean {
  switch (token.type) {
    case 'word':
    case 'phrase':
    case 'qualifier':
    case 'minus':
    case 'lparen':
      return true;
    default:
      return false;
  }
}

/** Nested ANDs (and ORs) are flattened: evaluation then walks one flat list. */
function combine(type: 'and' | 'or', nodes: QueryNode[]): QueryNode {
  if (nodes.length === 1) return nodes[0]!;
  const children = nodes.flatMap((node) => (node.type === type ? node.children : [node]));
  return { type, children };
}

/** Nesting of parentheses and "-" a query may have: deeper input is refused, not recursed into until the stack overflows. */
export const MAX_QUERY_DEPTH = 32;

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  private peek(): Token {
    // tokenize() always ends with an eof token and nothing reads past it.
    return this.tokens[this.index]!;
  }

  private advance(): Token {
    const token = this.peek();
    if (token.type !== 'eof') this.index++;
    return token;
  }

  parseQuery(): QueryNode {
    const first = this.peek();
    if (first.type === 'eof') return { type: 'all' };
    if (first.type === 'rparen') fail('unmatched ")"', first.pos);
    if (first.type === 'or') fail('expected an expression before "OR"', first.pos);
    const node = this.orExpr();
    const rest = this.peek();
    // orExpr stops only at eof or ")"; a ")" here has no "(" to close.
    if (rest.type !== 'eof') fail('unmatched ")"', rest.pos);
    return node;
  }

  private orExpr(): QueryNode {
    const operands = [this.andExpr()];
    while (this.peek().type === 'or') {
      const operator = this.advance();
      if (!startsUnary(this.peek())) fail('expected an expression after "OR"', operator.pos);
      operands.push(this.andExpr());
    }
    return combine('or', operands);
  }

  private andExpr(): QueryNode {
    const operands = [this.unary()];
    while (startsUnary(this.peek())) operands.push(this.unary());
    return combine('and', operands);
  }

  private unary(): QueryNode {
    const token = this.peek();
    if (++this.depth > MAX_QUERY_DEPTH) fail(`the query nests deeper than ${MAX_QUERY_DEPTH} levels of "(" and "-"`, token.pos);
    try {
      if (token.type !== 'minus') return this.primary();
      this.advance();
      if (!startsUnary(this.peek())) fail('expected an expression right after "-"', token.pos);
      return { type: 'not', child: this.unary() };
    } finally {
      this.depth--;
    }
  }

  private primary(): QueryNode {
    const token = this.advance();
    switch (token.type) {
      case 'word':
        return { type: 'text', text: token.text, quoted: false };
      case 'phrase':
        if (token.text === '') fail('empty quoted phrase', token.pos);
        return { type: 'text', text: token.text, quoted: true };
      case 'qualifier':
        return qualifierNode(token);
      case 'lparen':
        return this.group(token.pos);
      default:
        // Callers check startsUnary first, so this is a parser bug, not user input.
        throw new Error(`parser reached primary() at a ${token.type} token`);
    }
  }

  private group(openPos: number): QueryNode {
    const first = this.peek();
    if (first.type === 'rparen') fail('empty parentheses', openPos);
    if (first.type === 'eof') fail('unmatched "("', openPos);
    if (first.type === 'or') fail('expected an expression before "OR"', first.pos);
    const node = this.orExpr();
    if (this.peek().type !== 'rparen') fail('unmatched "("', openPos);
    this.advance();
    return node;
  }
}
