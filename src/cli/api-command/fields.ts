/**
 * `msgctl api` parameters: `--field`/`--raw-field key=value` pairs turned into
 * a JSON body (nested keys like `to[phone]`) or, for GET, query parameters
 * whose names stay literal (the API's own `page[limit]` has brackets in it).
 */
import { UsageError } from '../errors.js';
import type { Query, QueryValue } from '../api/client.js';

/** One `--field` (typed) or `--raw-field` (always a string), in command-line order. */
export interface FieldArg {
  key: string;
  text: string;
  raw: boolean;
  /** Position on the command line: the two flags are collected apart, and array order must follow argv. */
  order: number;
}

/** A field whose value is final: typed and with any `@file` read. */
export interface ResolvedField {
  key: string;
  value: unknown;
  /** The value as query-string text (GET). */
  text: string;
}

let argCount = 0;

/** Commander parser for repeatable `key=value` flags. */
export function fieldParser(raw: boolean) {
  return (arg: string, previous: FieldArg[] = []): FieldArg[] => {
    const eq = arg.indexOf('=');
    if (eq <= 0) {
      throw new UsageError(`${raw ? '--raw-field' : '--field'} "${arg}" is not key=value.`);
    }
    return [...previous, { key: arg.slice(0, eq), text: arg.slice(eq + 1), raw, order: argCount++ }];
  };
}

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** `--field` typing: true/false, null and JSON numbers become JSON values; anything else stays text. */
export function typedValue(text: string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (JSON_NUMBER.test(text)) {
    const n = Number(text);
    // An id-like integer too big for a double would silently change; keep it as text.
    const lossless = Number.isFinite(n) && (/[.eE]/.test(text) || Number.isSafeInteger(n));
    if (lossless) return n;
  }
  return text;
}

/** Reads `@path` (or `@-` for stdin) for a typed field. */
export type ReadSource = (path: string) => Promise<string>;

export async function resolveFields(args: FieldArg[], read: ReadSource): Promise<ResolvedField[]> {
  const sorted = [...args].sort((a, b) => a.order - b.order);
  if (sorted.filter((a) => !a.raw && a.text === '@-').length > 1) {
    throw new UsageError('Only one --field can read stdin (@-).');
  }
  const out: ResolvedField[] = [];
  for (const arg of sorted) {
    if (arg.raw) {
      out.push({ key: arg.key, value: arg.text, text: arg.text });
    } else if (arg.text.startsWith('@')) {
      const content = await read(arg.text.slice(1));
      out.push({ key: arg.key, value: content, text: content });
    } else {
      out.push({ key: arg.key, value: typedValue(arg.text), text: arg.text });
    }
  }
  return out;
}

/** `to[phone]` → ['to', 'phone']; `tags[]` → ['tags', null] (append). */
export function parseKeyPath(key: string): (string | null)[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw new UsageError(`Field name "${key}" is malformed: use name, name[sub] or name[].`);
  const segments: (string | null)[] = [match[1]!];
  for (const [, inner] of match[2]!.matchAll(/\[([^[\]]*)\]/g)) segments.push(inner === '' ? null : inner!);
  const appendAt = segments.indexOf(null);
  if (appendAt !== -1 && appendAt !== segments.length - 1) {
    throw new UsageError(`Field name "${key}": [] may only come last.`);
  }
  return segments;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own-property write, so a key such as `__proto__` is data and never reaches a prototype. */
function put(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The JSON body for POST/PUT/PATCH/DELETE. */
export function buildBody(fields: ResolvedField[]): JsonObject {
  const body: JsonObject = {};
  for (const field of fields) {
    const path = parseKeyPath(field.key);
    // `tags[]=a` appends to the array named by the segment before [].
    const append = path[path.length - 1] === null;
    const names = (append ? path.slice(0, -1) : path) as string[];
    let node = body;
    for (let i = 0; i < names.length - 1; i++) {
      const existing = own(node, names[i]!);
      if (existing === undefined) put(node, names[i]!, {});
      else if (!isObject(existing)) throw conflict(field.key, names.slice(0, i + 1));
      node = node[names[i]!] as JsonObject;
    }
    const name = names[names.length - 1]!;
    const existing = own(node, name);
    if (append) {
      if (existing === undefined) put(node, name, [field.value]);
      else if (Array.isArray(existing)) existing.push(field.value);
      else throw conflict(field.key, names);
    } else if (isObject(existing) || Array.isArray(existing)) {
      throw conflict(field.key, names);
    } else if (Object.hasOwn(node, name)) {
      throw new UsageError(`Field "${field.key}" is given more than once.`);
    } else {
      put(node, name, field.value);
    }
  }
  return body;
}

function own(node: JsonObject, name: string): unknown {
  return Object.hasOwn(node, name) ? node[name] : undefined;
}

function conflict(key: string, names: string[]): UsageError {
  const [head, ...rest] = names;
  const name = `${head}${rest.map((s) => `[${s}]`).join('')}`;
  return new UsageError(`Field "${key}" conflicts with another field: "${name}" cannot be both a value and a container.`);
}

/**
 * Query parameters for GET: names stay literal and a repeated name repeats in
 * the query string. `extra` holds parameters already in the path's `?…`.
 */
export function buildQuery(fields: ResolvedField[], extra: Query = {}): Query {
  const query: Record<string, QueryValue[]> = {};
  const add = (key: string, value: QueryValue) => {
    if (!Object.hasOwn(query, key)) put(query as JsonObject, key, []);
    query[key]!.push(value);
  };
  for (const [key, value] of Object.entries(extra)) {
    for (const v of Array.isArray(value) ? value : [value]) add(key, v);
  }
  for (const field of fields) add(field.key, field.text);
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, v.length === 1 ? v[0] : v]));
}
