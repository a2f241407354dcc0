import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  compileQuery,
  parseQuery,
  QueryParseError,
  type QueryNode,
  type SearchableMessage,
} from '../../src/sandbox/search/index.js';

const PATIENT_ID = '3f6c2a1e-8b4d-4c1a-9e2f-0a1b2c3d4e5f';

function message(overrides: Partial<SearchableMessage> = {}): SearchableMessage {
  return {
    body: 'Your appointment is confirmed. See you Tuesday!',
    senderName: 'Dana Lee',
    senderKind: 'staff',
    patientId: PATIENT_ID,
    patientName: 'José Álvarez',
    patientMrn: 'A123',
    patientPhone: '+15555550123',
    conversationPhone: '+15555559999',
    unread: false,
    deliveryStatus: 'queued',
    ...overrides,
  };
}

function matches(q: string, m: SearchableMessage = message()): boolean {
  return compileQuery(parseQuery(q))(m);
}

function parseError(q: string): { message: string; position: number } {
  try {
    parseQuery(q);
  } catch (error) {
    expect(error).toBeInstanceOf(QueryParseError);
    const { message, position } = error as QueryParseError;
    return { message, position };
  }
  throw new Error(`expected ${JSON.stringify(q)} to fail to parse`);
}

const text = (t: string, quoted = false): QueryNode => ({ type: 'text', text: t, quoted });

describe('parseQuery: structure', () => {
  it.each(['', '   ', '\t\n '])('parses the blank query %j to match-everything', (q) => {
    expect(parseQuery(q)).toEqual({ type: 'all' });
    expect(matches(q)).toBe(true);
  });

  it('parses a single word and a phrase', () => {
    expect(parseQuery('hello')).toEqual(text('hello'));
    expect(parseQuery('"see you"')).toEqual(text('see you', true));
  });

  it('treats juxtaposition as AND and flattens it', () => {
    expect(parseQuery('a b (c d)')).toEqual({ type: 'and', children: [text('a'), text('b'), text('c'), text('d')] });
  });

  it('binds OR looser than implicit AND', () => {
    expect(parseQuery('a b OR c')).toEqual({
      type: 'or',
      children: [{ type: 'and', children: [text('a'), text('b')] }, text('c')],
    });
    expect(parseQuery('a OR b c')).toEqual({
      type: 'or',
      children: [text('a'), { type: 'and', children: [text('b'), text('c')] }],
    });
  });

  it('lets parentheses override precedence', () => {
    expect(parseQuery('a (b OR c)')).toEqual({
      type: 'and',
      children: [text('a'), { type: 'or', children: [text('b'), text('c')] }],
    });
  });

  it('flattens chains of OR', () => {
    expect(parseQuery('a OR b OR (c OR d)')).toEqual({
      type: 'or',
      children: [text('a'), text('b'), text('c'), text('d')],
    });
  });

  it('negates single terms, groups, and negations', () => {
    expect(parseQuery('-a b')).toEqual({ type: 'and', children: [{ type: 'not', child: text('a') }, text('b')] });
    expect(parseQuery('-(a OR b)')).toEqual({
      type: 'not',
      child: { type: 'or', children: [text('a'), text('b')] },
    });
    expect(parseQuery('--a')).toEqual({ type: 'not', child: { type: 'not', child: text('a') } });
    expect(parseQuery('-"see you"')).toEqual({ type: 'not', child: text('see you', true) });
    expect(parseQuery('-is:unread')).toEqual({ type: 'not', child: { type: 'unread' } });
  });

  it('treats OR as an operator only when uppercase and standalone', () => {
    expect(parseQuery('a or b')).toEqual({ type: 'and', children: [text('a'), text('or'), text('b')] });
    expect(parseQuery('a Or b')).toEqual({ type: 'and', children: [text('a'), text('Or'), text('b')] });
    expect(parseQuery('a "OR" b')).toEqual({ type: 'and', children: [text('a'), text('OR', true), text('b')] });
    expect(parseQuery('ORDER')).toEqual(text('ORDER'));
    expect(parseQuery('(a)OR(b)')).toEqual({ type: 'or', children: [text('a'), text('b')] });
  });

  it('keeps dashes and colons inside words', () => {
    expect(parseQuery('follow-up')).toEqual(text('follow-up'));
    expect(parseQuery('10:30')).toEqual(text('10:30'));
  });

  it('ends words at quotes and parentheses', () => {
    expect(parseQuery('a"b c"')).toEqual({ type: 'and', children: [text('a'), text('b c', true)] });
    expect(parseQuery('f(x)')).toEqual({ type: 'and', children: [text('f'), text('x')] });
  });

  it('reads backslash escapes inside phrases', () => {
    expect(parseQuery('"say \\"hi\\" \\\\ bye"')).toEqual(text('say "hi" \\ bye', true));
    expect(parseQuery('"C:\\path"')).toEqual(text('C:\\path', true));
  });

  it('parses the combined example', () => {
    expect(parseQuery('from:patient -is:unread "see you" OR mrn:A123')).toEqual({
      type: 'or',
      children: [
        {
          type: 'and',
          children: [
            { type: 'senderKind', kind: 'patient' },
            { type: 'not', child: { type: 'unread' } },
            text('see you', true),
          ],
        },
        { type: 'mrn', mrn: 'A123' },
      ],
    });
  });
});

describe('parseQuery: qualifiers', () => {
  it('accepts qualifier names and is: values in any case', () => {
    expect(parseQuery('FROM:Dana')).toEqual({ type: 'senderName', text: 'Dana' });
    expect(parseQuery('Is:UnRead')).toEqual({ type: 'unread' });
    expect(parseQuery('IS:FAILED')).toEqual({ type: 'failed' });
  });

  it('reads from: kinds only when bare, and names otherwise', () => {
    expect(parseQuery('from:Staff')).toEqual({ type: 'senderKind', kind: 'staff' });
    expect(parseQuery('from:api_key')).toEqual({ type: 'senderKind', kind: 'api_key' });
    expect(parseQuery('from:"staff"')).toEqual({ type: 'senderName', text: 'staff' });
    expect(parseQuery('from:"Dana Lee"')).toEqual({ type: 'senderName', text: 'Dana Lee' });
  });

  it('reads a UUID after patient: as an id and anything else as a name', () => {
    expect(parseQuery(`patient:${PATIENT_ID.toUpperCase()}`)).toEqual({ type: 'patientId', id: PATIENT_ID });
    expect(parseQuery('patient:"Ana Diaz"')).toEqual({ type: 'patientName', text: 'Ana Diaz' });
  });

  it('reads the value right after the colon as text, even if it looks like an operator', () => {
    expect(parseQuery('from:OR')).toEqual({ type: 'senderName', text: 'OR' });
    expect(parseQuery('mrn:-5')).toEqual({ type: 'mrn', mrn: '-5' });
    expect(parseQuery('from:is:unread')).toEqual({ type: 'senderName', text: 'is:unread' });
  });

  it('normalises phone values to digits', () => {
    expect(parseQuery('phone:"(555) 555-0123"')).toEqual({ type: 'phone', digits: '5555550123' });
    expect(parseQuery('phone:+1.555.555.0123')).toEqual({ type: 'phone', digits: '15555550123' });
    expect(parseQuery('phone:0123')).toEqual({ type: 'phone', digits: '0123' });
  });

  it('drops leading zeros (trunk or 00 prefix) from full numbers only', () => {
    expect(parseQuery('phone:"07700 900123"')).toEqual({ type: 'phone', digits: '7700900123' });
    expect(parseQuery('phone:00447700900123')).toEqual({ type: 'phone', digits: '447700900123' });
    expect(parseQuery('phone:0012')).toEqual({ type: 'phone', digits: '0012' });
  });
});

describe('parseQuery: errors', () => {
  it.each([
    ['hello "see you', 'unterminated quote starting at position 6', 6],
    ['"', 'unterminated quote starting at position 0', 0],
    ['from:"Dana', 'unterminated quote starting at position 5', 5],
    ['foo:bar', 'unknown qualifier "foo" at position 0 (expected one of from, patient, mrn, phone, is)', 0],
    ['ok -Re:hi', 'unknown qualifier "Re" at position 4 (expected one of from, patient, mrn, phone, is)', 4],
    ['see you OR', 'expected an expression after "OR" at position 8', 8],
    ['a OR OR b', 'expected an expression after "OR" at position 2', 2],
    ['(a OR) b', 'expected an expression after "OR" at position 3', 3],
    ['OR a', 'expected an expression before "OR" at position 0', 0],
    ['a (OR b)', 'expected an expression before "OR" at position 3', 3],
    ['hello) b', 'unmatched ")" at position 5', 5],
    [')', 'unmatched ")" at position 0', 0],
    ['(a OR b', 'unmatched "(" at position 0', 0],
    ['x ((a) b', 'unmatched "(" at position 2', 2],
    ['a () b', 'empty parentheses at position 2', 2],
    ['-', 'expected an expression right after "-" at position 0', 0],
    ['a - b', 'expected an expression right after "-" at position 2', 2],
    ['(a -)', 'expected an expression right after "-" at position 3', 3],
    ['-OR b', 'expected an expression right after "-" at position 0', 0],
    ['a ""', 'empty quoted phrase at position 2', 2],
    ['is:read', 'unknown value "read" for "is:" at position 3 (expected unread or failed)', 3],
    ['is:', 'expected a value right after "is:" at position 3 (expected unread or failed)', 3],
    ['mrn:""', 'empty value for "mrn:" at position 4', 4],
    ['from:"  "', 'empty value for "from:" at position 5', 5],
    ['phone:abc', 'invalid phone number "abc" at position 6 (expected digits, optionally with spaces and + ( ) - .)', 6],
    ['phone:555-CALL', 'invalid phone number "555-CALL" at position 6 (expected digits, optionally with spaces and + ( ) - .)', 6],
    ['phone:"+"', 'invalid phone number "+" at position 6 (expected digits, optionally with spaces and + ( ) - .)', 6],
  ])('rejects %j: %s', (q, expectedMessage, expectedPosition) => {
    expect(parseError(q)).toEqual({ message: expectedMessage, position: expectedPosition });
  });

  it.each([
    ['mrn:', 4],
    ['a mrn: A123', 6],
    ['phone:(555) 555-0123', 6],
  ])('rejects a missing qualifier value in %j and says how to quote it', (q, position) => {
    const error = parseError(q);
    expect(error.position).toBe(position);
    expect(error.message).toMatch(new RegExp(`^expected a value right after "\\w+:" at position ${position} \\(`));
    expect(error.message).toContain('quote values that contain spaces or parentheses');
  });

  it('builds a proper Error subclass', () => {
    const error = new QueryParseError('boom at position 3', 3);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('QueryParseError');
    expect(error.position).toBe(3);
  });
});

describe('compileQuery: free text', () => {
  it('matches words as case-insensitive substrings of the body', () => {
    expect(matches('APPOINT')).toBe(true);
    expect(matches('confirmed.')).toBe(true);
    expect(matches('cancelled')).toBe(false);
  });

  it('requires every juxtaposed word', () => {
    expect(matches('appointment tuesday')).toBe(true);
    expect(matches('appointment wednesday')).toBe(false);
  });

  it('matches phrases as exact case-insensitive substrings', () => {
    expect(matches('"SEE YOU tuesday"')).toBe(true);
    expect(matches('"you see"')).toBe(false);
    expect(matches('"see  you"')).toBe(false);
  });

  it('folds case beyond ASCII', () => {
    expect(matches('ÉTÉ', message({ body: 'Bon été !' }))).toBe(true);
  });

  it('treats regular-expression characters literally', () => {
    const m = message({ body: 'Call (555) 555-0123 or a.b' });
    expect(matches('"(555)"', m)).toBe(true);
    expect(matches('a.b', m)).toBe(true);
    expect(matches('a.c', message({ body: 'abc' }))).toBe(false);
    expect(matches('.*', m)).toBe(false);
  });
});

describe('compileQuery: qualifiers', () => {
  it('from: matches the sender name as a case-insensitive substring', () => {
    expect(matches('from:lee')).toBe(true);
    expect(matches('from:"dana LEE"')).toBe(true);
    expect(matches('from:smith')).toBe(false);
  });

  it('from:patient|staff|api_key match the sender kind, not the name', () => {
    expect(matches('from:staff')).toBe(true);
    expect(matches('from:patient')).toBe(false);
    expect(matches('from:api_key', message({ senderKind: 'api_key', senderName: 'Reminder bot' }))).toBe(true);
    expect(matches('from:patient', message({ senderKind: 'patient', senderName: 'José Álvarez' }))).toBe(true);
    const staffNamedPatience = message({ senderName: 'Patience Ode' });
    expect(matches('from:patient', staffNamedPatience)).toBe(false);
    expect(matches('from:"patien"', staffNamedPatience)).toBe(true);
  });

  it('patient: matches the patient name as a substring, or an exact id', () => {
    expect(matches('patient:álvarez')).toBe(true);
    expect(matches('patient:"josé á"')).toBe(true);
    expect(matches('patient:smith')).toBe(false);
    expect(matches(`patient:${PATIENT_ID}`)).toBe(true);
    expect(matches(`patient:${PATIENT_ID.toUpperCase()}`)).toBe(true);
    expect(matches('patient:00000000-0000-4000-8000-000000000000')).toBe(false);
  });

  it('patient: never matches a message without a patient', () => {
    const noPatient = message({ patientId: null, patientName: null });
    expect(matches('patient:jos', noPatient)).toBe(false);
    expect(matches(`patient:${PATIENT_ID}`, noPatient)).toBe(false);
  });

  it('mrn: is an exact, case-insensitive match', () => {
    expect(matches('mrn:A123')).toBe(true);
    expect(matches('mrn:a123')).toBe(true);
    expect(matches('mrn:A12')).toBe(false);
    expect(matches('mrn:A1234')).toBe(false);
    expect(matches('mrn:A123', message({ patientMrn: null }))).toBe(false);
    expect(matches('mrn:"A.23"', message({ patientMrn: 'AB23' }))).toBe(false);
  });

  it('phone: matches full numbers by digits, with or without the country code', () => {
    expect(matches('phone:"(555) 555-0123"')).toBe(true);
    expect(matches('phone:+15555550123')).toBe(true);
    expect(matches('phone:"+1 555 555 0123"')).toBe(true);
    expect(matches('phone:555.555.0124')).toBe(false);
  });

  it('phone: matches short values as the last digits', () => {
    expect(matches('phone:0123')).toBe(true);
    expect(matches('phone:5550123')).toBe(true);
    expect(matches('phone:5555')).toBe(false);
  });

  it('phone: also matches the conversation (clinic) number', () => {
    expect(matches('phone:9999')).toBe(true);
    expect(matches('phone:9999', message({ conversationPhone: null }))).toBe(false);
    expect(matches('phone:0123', message({ patientPhone: null }))).toBe(false);
  });

  it('phone: matches numbers written with a trunk or international prefix', () => {
    const uk = message({ patientPhone: '+447700900123' });
    expect(matches('phone:"07700 900123"', uk)).toBe(true);
    expect(matches('phone:"0044 7700 900123"', uk)).toBe(true);
  });

  it('is:unread matches unread messages', () => {
    expect(matches('is:unread', message({ unread: true }))).toBe(true);
    expect(matches('is:unread', message({ unread: false }))).toBe(false);
  });

  it.each([
    ['failed', true],
    ['undelivered', true],
    ['queued', false],
    ['delivered', false],
    [null, false],
  ])('is:failed with delivery status %j is %s', (deliveryStatus, expected) => {
    expect(matches('is:failed', message({ deliveryStatus }))).toBe(expected);
  });
});

describe('compileQuery: operators', () => {
  it('negates terms', () => {
    expect(matches('-cancelled')).toBe(true);
    expect(matches('-appointment')).toBe(false);
    expect(matches('--appointment')).toBe(true);
  });

  it('evaluates OR looser than AND', () => {
    // (cancelled AND tuesday) OR confirmed
    expect(matches('cancelled tuesday OR confirmed')).toBe(true);
    // (cancelled AND (tuesday OR confirmed))
    expect(matches('cancelled (tuesday OR confirmed)')).toBe(false);
    expect(matches('nothing OR nowhere')).toBe(false);
  });

  it('negates whole groups', () => {
    expect(matches('-(cancelled OR rescheduled)')).toBe(true);
    expect(matches('-(cancelled OR confirmed)')).toBe(false);
    expect(matches('-(appointment tuesday)')).toBe(false);
    expect(matches('-(appointment wednesday)')).toBe(true);
  });

  it('evaluates the combined example on both sides of the OR', () => {
    const q = 'from:patient -is:unread "see you" OR mrn:A123';
    const base = { patientMrn: 'Z999', body: 'OK, see you then', senderKind: 'patient' } as const;
    expect(matches(q, message({ ...base, unread: false }))).toBe(true);
    expect(matches(q, message({ ...base, unread: true }))).toBe(false);
    expect(matches(q, message({ ...base, senderKind: 'staff' }))).toBe(false);
    expect(matches(q, message({ ...base, body: 'OK' }))).toBe(false);
    expect(matches(q, message({ ...base, body: 'OK', unread: true, patientMrn: 'a123' }))).toBe(true);
  });

  it('gives the same answer every time a compiled query is reused', () => {
    const predicate = compileQuery(parseQuery('see OR you'));
    const m = message();
    expect([predicate(m), predicate(m), predicate(m)]).toEqual([true, true, true]);
  });
});

describe('compileQuery: per-message work', () => {
  afterEach(() => vi.restoreAllMocks());

  it('does not change the case of any string while evaluating', () => {
    const predicate = compileQuery(
      parseQuery('APPOINTMENT "See You" from:DANA patient:JOSÉ mrn:a123 OR phone:0123 -from:Staff'),
    );
    const spies = [
      vi.spyOn(String.prototype, 'toLowerCase'),
      vi.spyOn(String.prototype, 'toUpperCase'),
      vi.spyOn(String.prototype, 'toLocaleLowerCase'),
      vi.spyOn(String.prototype, 'toLocaleUpperCase'),
    ];
    const results = [message(), message({ body: 'x' }), message({ senderKind: 'patient' })].map(predicate);
    expect(results).toEqual([true, false, true]);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});
