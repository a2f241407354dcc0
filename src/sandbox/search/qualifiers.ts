/**
 * Turns a lexed `name:value` into the AST node it means, validating the value.
 * Qualifier names are case-insensitive; so are the `is:` states and the
 * `from:` sender kinds.
 */
import type { QueryNode, SenderKind } from './ast.js';
import { QueryParseError } from './errors.js';
import type { QualifierValue, Token } from './tokenizer.js';
import { looksLikeUuid } from '../validation/formats.js';

type QualifierToken = Extract<Token, { type: 'qualifier' }>;

export const QUALIFIER_NAMES = ['from', 'patient', 'mrn', 'phone', 'is'] as const;
type QualifierName = (typeof QUALIFIER_NAMES)[number];

const QUOTING_HINT = 'no space after the colon; quote values that contain spaces or parentheses, e.g.';
/** Appended when a value is missing: the usual cause is a space or "(" after the colon. */
const MISSING_VALUE_HINTS: Record<QualifierName, string> = {
  from: `${QUOTING_HINT} from:"Dana Lee"`,
  patient: `${QUOTING_HINT} patient:"Ana Diaz"`,
  mrn: `${QUOTING_HINT} mrn:"A 123"`,
  phone: `${QUOTING_HINT} phone:"(555) 555-0123"`,
  is: 'expected unread or failed',
};

const SENDER_KINDS: ReadonlySet<string> = new Set<SenderKind>(['patient', 'staff', 'api_key']);
const PHONE_CHARS = /^[\d\s+().-]*$/;
/** From this many digits a phone value is a whole number, not "last digits". */
const FULL_NUMBER_DIGITS = 10;

function isQualifierName(name: string): name is QualifierName {
  return (QUALIFIER_NAMES as readonly string[]).includes(name);
}

export function qualifierNode(token: QualifierToken): QueryNode {
  const name = token.name.toLowerCase();
  if (!isQualifierName(name)) {
    throw new QueryParseError(
      `unknown qualifier "${token.name}" at position ${token.pos} (expected one of ${QUALIFIER_NAMES.join(', ')})`,
      token.pos,
    );
  }
  const value = requireValue(token, name);
  switch (name) {
    case 'from':
      return fromNode(value);
    case 'patient':
      return looksLikeUuid(value.text)
        ? { type: 'patientId', id: value.text.toLowerCase() }
        : { type: 'patientName', text: value.text };
    case 'mrn':
      return { type: 'mrn', mrn: value.text };
    case 'phone':
      return { type: 'phone', digits: phoneDigits(value.text, token.valuePos) };
    case 'is':
      return isNode(value.text, token);
  }
}

function requireValue(token: QualifierToken, name: QualifierName): QualifierValue {
  const label = `"${token.name}:"`;
  if (token.value === null) {
    throw new QueryParseError(
      `expected a value right after ${label} at position ${token.valuePos} (${MISSING_VALUE_HINTS[name]})`,
      token.valuePos,
    );
  }
  if (token.value.text.trim() === '') {
    throw new QueryParseError(`empty value for ${label} at position ${token.valuePos}`, token.valuePos);
  }
  return token.value;
}

/** A bare `from:staff` is the sender kind; a quoted `from:"staff"` searches names. */
function fromNode(value: QualifierValue): QueryNode {
  const kind = value.text.toLowerCase();
  if (!value.quoted && SENDER_KINDS.has(kind)) return { type: 'senderKind', kind: kind as SenderKind };
  return { type: 'senderName', text: value.text };
}

function isNode(state: string, token: QualifierToken): QueryNode {
  switch (state.toLowerCase()) {
    case 'unread':
      return { type: 'unread' };
    case 'failed':
      return { type: 'failed' };
    default:
      throw new QueryParseError(
        `unknown value "${state}" for "${token.name}:" at position ${token.valuePos} (expected unread or failed)`,
        token.valuePos,
      );
  }
}

/**
 * Keeps the digits. A full number (10+ digits) also loses leading zeros: E.164
 * never starts with 0, so they can only be a trunk prefix (07700 900123) or the
 * 00 international prefix, and the rest is then matched as a suffix.
 */
function phoneDigits(text: string, pos: number): string {
  let digits = text.replace(/\D/g, '');
  if (digits.length >= FULL_NUMBER_DIGITS) digits = digits.replace(/^0+/, '');
  if (!PHONE_CHARS.test(text) || digits === '') {
    throw new QueryParseError(
      `invalid phone number "${text}" at position ${pos} (expected digits, optionally with spaces and + ( ) - .)`,
      pos,
    );
  }
  return digits;
}
