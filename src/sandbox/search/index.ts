/** Search language for `q` of GET /patient-messages; see docs/search-language.md. */
export type { QueryNode, SenderKind } from './ast.js';
export { QueryParseError } from './errors.js';
export { parseQuery } from './parser.js';
export { compileQuery, type MessagePredicate, type SearchableMessage } from './evaluator.js';
