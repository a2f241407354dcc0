/**
 * The parsed form of a search query. The parser resolves what each qualifier
 * means (a sender kind versus a sender name, a patient id versus a name), so
 * the evaluator never has to re-interpret raw text.
 */

export type SenderKind = 'patient' | 'staff' | 'api_key';

export type QueryNode =
  /** The empty query: every message matches. */
  | { type: 'all' }
  | { type: 'and'; children: QueryNode[] }
  | { type: 'or'; children: QueryNode[] }
  | { type: 'not'; child: QueryNode }
  /** A free-text word or a quoted phrase: case-insensitive substring of the body. */
  | { type: 'text'; text: string; quoted: boolean }
  | { type: 'senderKind'; kind: SenderKind }
  | { type: 'senderName'; text: string }
  /** Lower-cased UUID. */
  | { type: 'patientId'; id: string }
  | { type: 'patientName'; text: string }
  | { type: 'mrn'; mrn: string }
  /** Digits only; see docs/search-language.md for how they are compared. */
  | { type: 'phone'; digits: string }
  | { type: 'unread' }
  | { type: 'failed' };
