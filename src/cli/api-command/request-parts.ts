/**
 * Checks and splits what `msgctl api` is given on the command line: the path
 * (relative to the base URL, possibly with a query string) and extra headers.
 */
import { UsageError } from '../errors.js';
import type { Query } from '../api/client.js';

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** `patients?phone=…` → path `patients` and its query parameters (repeated names kept). */
export function splitPath(raw: string): { path: string; query: Query } {
  // A full URL would send the credential wherever it points; only the configured base URL gets it.
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) {
    throw new UsageError(`"${raw}" is not a path: give it relative to the base URL, e.g. /patients.`, [
      'Talk to another service or sandbox with --base-url (the credential goes only there).',
    ]);
  }
  const withoutFragment = raw.split('#')[0]!;
  const q = withoutFragment.indexOf('?');
  const path = (q === -1 ? withoutFragment : withoutFragment.slice(0, q)).replace(/^\/+/, '');
  const query = Object.create(null) as Record<string, string | string[]>;
  if (q !== -1) {
    for (const [key, value] of new URLSearchParams(withoutFragment.slice(q + 1))) {
      const existing = query[key];
      query[key] = existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
    }
  }
  return { path, query };
}

/** Headers the client owns: the credential, and the framing of the body it serialises. */
const REFUSED_HEADERS: Record<string, string> = {
  authorization: 'msgctl sends the configured credential; use --profile or MSGCTL_API_KEY / MSGCTL_TOKEN to pick another.',
  host: 'the host comes from the base URL (--base-url).',
  'content-length': 'the length is computed from the body.',
  'transfer-encoding': 'the body framing is chosen by the HTTP client.',
};

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export interface ExtraHeaders {
  /** Lower-cased names, repeated names joined with ", ". */
  headers: Record<string, string>;
  /** Taken out of `headers` so the client sends it once and reuses it on every retry. */
  idempotencyKey?: string;
}

export function parseHeaders(args: string[]): ExtraHeaders {
  // No prototype: a header named __proto__ stays a header.
  const headers = Object.create(null) as Record<string, string>;
  let idempotencyKey: string | undefined;
  for (const arg of args) {
    const colon = arg.indexOf(':');
    const name = (colon === -1 ? arg : arg.slice(0, colon)).trim().toLowerCase();
    if (colon === -1 || !TOKEN.test(name)) throw new UsageError(`--header "${arg}" is not "Name: value".`);
    const value = arg.slice(colon + 1).trim();
    // What Node would refuse at send time (reported then as a network failure, exit 8): said here, exit 2.
    if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) {
      throw new UsageError(`--header ${name}: its value holds a line break or another character a header cannot carry.`);
    }
    const refusal = REFUSED_HEADERS[name];
    if (refusal) throw new UsageError(`--header cannot set ${name}: ${refusal}`);
    if (name === 'idempotency-key') {
      if (idempotencyKey !== undefined) throw new UsageError('--header Idempotency-Key is given more than once.');
      idempotencyKey = value;
      continue;
    }
    headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value;
  }
  return idempotencyKey === undefined ? { headers } : { headers, idempotencyKey };
}
