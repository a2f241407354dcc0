/**
 * Compiles a parsed query into one predicate. Everything that depends only on
 * the query (case folding, escaping, phone digits) is done here, once, so the
 * per-message work is a few regex tests and comparisons: the sandbox runs the
 * predicate over every stored message (hundreds of thousands).
 */
import type { QueryNode, SenderKind } from './ast.js';

/** The flat view of a message that the sandbox builds for searching. */
export interface SearchableMessage {
  body: string;
  senderName: string;
  senderKind: string; // 'patient' | 'staff' | 'api_key'
  patientId: string | null;
  patientName: string | null;
  patientMrn: string | null;
  /** E.164 or null. */
  patientPhone: string | null;
  /** The clinic number of the conversation, E.164, or null. */
  conversationPhone: string | null;
  unread: boolean;
  deliveryStatus: string | null;
}

export type MessagePredicate = (m: SearchableMessage) => boolean;

const FAILED_STATUSES: ReadonlySet<string> = new Set(['failed', 'undelivered']);

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/**
 * Case-insensitive matching through a prebuilt `iu` regex rather than
 * lower-casing: no string is lower-cased or allocated per message, and the
 * `u` flag folds case across Unicode (É/é), not just ASCII.
 */
function containsIgnoringCase(needle: string): (haystack: string | null) => boolean {
  const pattern = new RegExp(escapeRegExp(needle), 'iu');
  return (haystack) => haystack !== null && pattern.test(haystack);
}

function equalsIgnoringCase(expected: string): (actual: string | null) => boolean {
  const pattern = new RegExp(`^${escapeRegExp(expected)}$`, 'iu');
  return (actual) => actual !== null && pattern.test(actual);
}

/**
 * Stored numbers are E.164 ("+15555550123"), whose only non-digit is the
 * leading "+", so a digit suffix can be checked with endsWith on the raw
 * string. Every phone value is a suffix match: short values are "last digits"
 * searches, and a full 10-digit number is the whole national number, so it
 * matches with or without the country code.
 */
function endsWithDigits(digits: string): (phone: string | null) => boolean {
  return (phone) => phone !== null && phone.endsWith(digits);
}

function every(predicates: MessagePredicate[]): MessagePredicate {
  const [a, b] = predicates;
  if (predicates.length === 2 && a && b) return (m) => a(m) && b(m);
  return (m) => {
    for (const p of predicates) if (!p(m)) return false;
    return true;
  };
}

function some(predicates: MessagePredicate[]): MessagePredicate {
  const [a, b] = predicates;
  if (predicates.length === 2 && a && b) return (m) => a(m) || b(m);
  return (m) => {
    for (const p of predicates) if (p(m)) return true;
    return false;
  };
}

export function compileQuery(node: QueryNode): MessagePredicate {
  switch (node.type) {
    case 'all':
      return () => true;
    case 'and':
      return every(node.children.map(compileQuery));
    case 'or':
      return some(node.children.map(compileQuery));
    case 'not': {
      const inner = compileQuery(node.child);
      return (m) => !inner(m);
    }
    case 'text': {
      const matches = containsIgnoringCase(node.text);
      return (m) => matches(m.body);
    }
    case 'senderKind': {
      const kind: SenderKind = node.kind;
      return (m) => m.senderKind === kind;
    }
    case 'senderName': {
      const matches = containsIgnoringCase(node.text);
      return (m) => matches(m.senderName);
    }
    case 'patientId': {
      const matches = equalsIgnoringCase(node.id);
      return (m) => matches(m.patientId);
    }
    case 'patientName': {
      const matches = containsIgnoringCase(node.text);
      return (m) => matches(m.patientName);
    }
    case 'mrn': {
      const matches = equalsIgnoringCase(node.mrn);
      return (m) => matches(m.patientMrn);
    }
    case 'phone': {
      const matches = endsWithDigits(node.digits);
      return (m) => matches(m.patientPhone) || matches(m.conversationPhone);
    }
    case 'unread':
      return (m) => m.unread;
    case 'failed':
      return (m) => m.deliveryStatus !== null && FAILED_STATUSES.has(m.deliveryStatus);
  }
}
