/**
 * The body rules every sandbox endpoint shares (docs/sandbox.md "One request
 * rule"), checked in the route layer before the endpoint's own validation:
 * - a field the endpoint does not know is 422 `unknown_field` (a misspelt
 *   optional field must not be silently dropped: `chanel: "sms"` would send
 *   a secure message), in nested objects and in the objects of a list (an
 *   import's rows) too;
 * - a name given twice in one object is 422 `repeated_field` (JSON.parse keeps
 *   the last; which one the caller meant is a guess);
 * - `null` in a field the spec does not make nullable is 422 `not_nullable`
 *   (leave the field out for its default).
 * Types, formats and required fields stay with each endpoint.
 */
import { FieldErrors } from '../problem.js';
import { repeatedFieldsOf } from './edge.js';

/** A field's rule: whether null is a value, and the known fields of a nested object or of each object in a list. */
export interface FieldShape {
  nullable?: boolean;
  fields?: BodyShape;
  items?: BodyShape;
}

/** The known fields of a JSON object body (or nested object). */
export type BodyShape = Readonly<Record<string, FieldShape>>;

const plain: FieldShape = {};

/** Fields that are all non-nullable and flat. */
export function fieldsOf(...names: string[]): BodyShape {
  return Object.fromEntries(names.map((n) => [n, plain]));
}

/** Flat fields where null is a value (it clears the field). */
export function nullable(...names: string[]): BodyShape {
  return Object.fromEntries(names.map((n) => [n, { nullable: true }]));
}

/** One problem lists at most this many field errors: thousands of bad rows would bury the first. */
const MAX_ERRORS = 100;

/**
 * Throws one 422 `validation_failed` listing every name given twice, every
 * unknown field and every null in a non-nullable one. A body that is not an
 * object is left to the endpoint, which names what it expected.
 */
export function checkBodyShape(body: unknown, shape: BodyShape): void {
  const errors = new FieldErrors();
  for (const path of repeatedFieldsOf(body)) {
    errors.add(path, 'repeated_field', `${path.slice(1).replaceAll('/', '.')} is given twice; give each field once.`);
  }
  walk(body, shape, '', errors);
  if (errors.items.length > MAX_ERRORS) errors.items.splice(MAX_ERRORS);
  errors.throwIfAny();
}

function walk(value: unknown, shape: BodyShape, path: string, errors: FieldErrors): void {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const at = `${path}/${escapePointer(key)}`;
    const rule = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (!rule) {
      errors.add(at, 'unknown_field', `${describe(path, key)} is not a field of this request; check its spelling.`);
    } else if (field === null && !rule.nullable) {
      errors.add(at, 'not_nullable', `${describe(path, key)} cannot be null; leave it out for the default.`);
    } else if (rule.fields) {
      walk(field, rule.fields, at, errors);
    } else if (rule.items && Array.isArray(field)) {
      for (let i = 0; i < field.length && errors.items.length <= MAX_ERRORS; i++) walk(field[i], rule.items, `${at}/${i}`, errors);
    }
  }
}

function describe(path: string, key: string): string {
  const printable = key.length > 60 ? `${key.slice(0, 60)}…` : key;
  const name = JSON.stringify(printable);
  return path ? `${path.slice(1).replaceAll('/', '.')}.${name}` : name;
}

/** RFC 6901: the field name as one JSON Pointer segment. */
function escapePointer(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}
