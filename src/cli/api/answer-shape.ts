/**
 * Does an answer have the shape api-spec.md gives it? A 2xx JSON answer of the
 * wrong shape (a stand-in server, a proxy's `{}`, a broken deployment) made
 * views fail with a TypeError of their own ("Cannot read properties of
 * undefined") or print a record of blanks and exit 0. The client checks each
 * answer against the shape of what the command asked for (shapes.ts) and
 * names the first field that is wrong.
 *
 * Only what a view could trip on is checked: each field's JSON type, and the
 * members of nested objects. Values (enums, timestamps, UUIDs) are not: a new
 * status from a newer service still shows. Unknown fields are fine.
 */

/** A JSON type; with `?`, the field may also be null or absent. */
type JsonType = 'string' | 'number' | 'boolean' | 'array' | 'object';
export type FieldSpec = JsonType | `${JsonType}?` | NestedSpec | ListSpec;

/** A member that is itself an object with fields to check (null or absent allowed when `optional`). */
export interface NestedSpec {
  readonly fields: Fields;
  readonly optional: boolean;
}

/** A member that is an array of objects with fields to check (null or absent allowed when `optional`). */
export interface ListSpec {
  readonly each: Fields;
  readonly optional: boolean;
}

export type Fields = Readonly<Record<string, FieldSpec>>;

/** Every field of T has a spec, so a change to the contract's types is a type error here. */
export interface Shape<T> {
  /** What the answer is, in words: "a patient", "a list page of messages". */
  readonly name: string;
  readonly fields: { readonly [K in keyof T]-?: FieldSpec };
}

export function nested(fields: Fields): NestedSpec {
  return { fields, optional: false };
}

export function optionalNested(fields: Fields): NestedSpec {
  return { fields, optional: true };
}

export function listOf(each: Fields): ListSpec {
  return { each, optional: false };
}

export function optionalListOf(each: Fields): ListSpec {
  return { each, optional: true };
}

/**
 * What is wrong with `value` as an object of these fields, in words; null when nothing is.
 * It runs for every record of a list and every row of a batch, so an answer that passes
 * allocates nothing: members are checked without a path, and a path is spelled out (a second,
 * failing pass) only for the answer that fails.
 */
export function shapeProblem(value: unknown, fields: Fields, at = ''): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return at ? `"${at}" is ${describe(value)}, not an object` : `it is ${describe(value)}, not an object`;
  }
  const record = value as Record<string, unknown>;
  for (const name in fields) {
    const spec = fields[name]!;
    const member = Object.hasOwn(record, name) ? record[name] : undefined;
    if (typeof spec === 'object') {
      if (member === undefined || member === null) {
        if (spec.optional) continue;
        if (member === undefined) return `"${pathOf(at, name)}" is missing`;
      }
      if ('each' in spec) {
        if (listProblem(member, spec.each, '') !== null) return listProblem(member, spec.each, pathOf(at, name));
      } else if (shapeProblem(member, spec.fields, '') !== null) return shapeProblem(member, spec.fields, pathOf(at, name));
      continue;
    }
    const [wanted, optional] = SPECS[spec];
    if (member === undefined || member === null) {
      if (optional) continue;
      return `"${pathOf(at, name)}" is ${member === undefined ? 'missing' : 'null'}`;
    }
    if (jsonType(member) !== wanted) return `"${pathOf(at, name)}" is ${describe(member)}, not ${article(wanted)}`;
  }
  return null;
}

function listProblem(value: unknown, each: Fields, at: string): string | null {
  if (!Array.isArray(value)) return `"${at}" is ${describe(value)}, not an array`;
  for (let i = 0; i < value.length; i++) {
    if (shapeProblem(value[i], each, '') !== null) return shapeProblem(value[i], each, `${at}[${i}]`);
  }
  return null;
}

function pathOf(at: string, name: string): string {
  return at ? `${at}.${name}` : name;
}

/** Each primitive spec's JSON type and whether null or absent is allowed, looked up rather than parsed per field. */
const SPECS: Readonly<Record<JsonType | `${JsonType}?`, readonly [JsonType, boolean]>> = {
  string: ['string', false],
  number: ['number', false],
  boolean: ['boolean', false],
  array: ['array', false],
  object: ['object', false],
  'string?': ['string', true],
  'number?': ['number', true],
  'boolean?': ['boolean', true],
  'array?': ['array', true],
  'object?': ['object', true],
};

function jsonType(value: unknown): JsonType | 'null' {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as JsonType;
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  return value === null ? 'null' : article(jsonType(value) as JsonType);
}

function article(type: JsonType): string {
  return type === 'array' || type === 'object' ? `an ${type}` : `a ${type}`;
}
