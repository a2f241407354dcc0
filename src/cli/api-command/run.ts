/**
 * `msgctl api`: one authenticated request to any endpoint (or every page of a
 * list with --paginate), going through the same client as every command so
 * credentials, retries, timeouts, --verbose and problem rendering are shared.
 */
import type { Context } from '../context.js';
import type { ApiResponse, Query } from '../api/client.js';
import { CliError, UsageError } from '../errors.js';
import { buildBody, buildQuery, resolveFields, type FieldArg } from './fields.js';
import { parseHeaders, splitPath } from './request-parts.js';
import { jsonForTerminal, stringifyWellFormed, terminalSafe } from '../output/terminal-text.js';
// From the CommonJS object: the ESM facade of node:http loads Node's internal undici (its WebSocket getter).
const { STATUS_CODES } = process.getBuiltinModule('node:http');

export interface ApiFlags {
  field?: FieldArg[];
  rawField?: FieldArg[];
  header?: string[];
  input?: string;
  paginate?: boolean;
  include?: boolean;
  /** --max-body: the most of a response body to read (bytes). */
  maxBody?: number;
}

export async function runApiCommand(ctx: Context, method: string, rawPath: string, flags: ApiFlags): Promise<void> {
  const { path, query: pathQuery } = splitPath(rawPath);
  const fieldArgs = [...(flags.field ?? []), ...(flags.rawField ?? [])];
  if (flags.input !== undefined && fieldArgs.length > 0) {
    throw new UsageError('--input is the whole request body: give it or --field/--raw-field, not both.');
  }
  if (flags.input !== undefined && method === 'GET') {
    throw new UsageError('A GET has no body: pass query parameters with --field instead of --input.');
  }
  if (flags.paginate && method !== 'GET') throw new UsageError('--paginate follows the pages of a list, which only GET reads.');
  const { headers, idempotencyKey: givenKey } = parseHeaders(flags.header ?? []);

  // Everything local (files, stdin, JSON) is checked before anything is sent.
  const read = (source: string) => readSource(ctx, source);
  const fields = await resolveFields(fieldArgs, read);
  let query: Query = pathQuery;
  let body: unknown;
  if (method === 'GET') query = buildQuery(fields, pathQuery);
  else if (flags.input !== undefined) body = parseJsonInput(await read(flags.input), flags.input);
  else if (fields.length > 0) body = buildBody(fields);
  // Like the dedicated commands, a POST carries a key so the client's retries cannot create twice.
  const key = givenKey ?? (method === 'POST' ? ctx.freshIdempotencyKey() : undefined);
  const idempotencyKey = key === undefined ? undefined : ctx.headerIdempotencyKey(key);

  const client = await ctx.client();
  // --json FIELDS, --jq, --template: each body (or each record with --paginate) through them (output/record-format.ts).
  const shaped = ctx.opts.jsonFields !== undefined || ctx.opts.jq !== undefined || ctx.opts.template !== undefined;
  await ctx.out.usePager();
  if (!flags.paginate) {
    const response = await client.request<unknown>(method, path, { query, body, headers, idempotencyKey, signal: ctx.signal, maxBodyBytes: flags.maxBody, anyBody: true });
    if (flags.include) await ctx.out.write(forPerson(ctx, head(response)));
    if (shaped && response.data !== null && response.data !== undefined) await ctx.out.json(response.data);
    else await writeBody(ctx, response.data);
    return;
  }

  let cursor: string | undefined;
  for (;;) {
    const pageQuery = cursor === undefined ? query : { ...query, 'page[after]': cursor };
    const response = await client.request<unknown>('GET', path, { query: pageQuery, headers, signal: ctx.signal, maxBodyBytes: flags.maxBody, anyBody: true });
    const page = response.data as { data?: unknown; pagination?: { next_cursor?: unknown; has_more?: unknown } } | null;
    if (!page || typeof page !== 'object' || !Array.isArray(page.data)) {
      throw new CliError(`GET /${path} did not answer with a list (no "data" array), so there are no pages to follow; drop --paginate.`);
    }
    if (flags.include) await ctx.out.write(forPerson(ctx, head(response)));
    for (const record of page.data) {
      if (shaped) await ctx.out.json(record);
      else await ctx.out.write(jsonForPerson(ctx, stringifyWellFormed(record)) + '\n');
    }
    const next = page.pagination?.next_cursor;
    if (typeof next !== 'string' || next === '' || page.pagination?.has_more === false) return;
    if (next === cursor) throw new CliError('The service returned the same cursor twice; stopping rather than looping.');
    cursor = next;
  }
}

/** `@file` / `--input` contents; `-` is stdin. Decoded like every text input (BOM, UTF-16). */
async function readSource(ctx: Context, source: string): Promise<string> {
  const { readTextFrom } = await import('../util/input-file.js');
  return readTextFrom({ stdin: ctx.io.stdin, signal: ctx.signal }, source, source === '-' ? 'stdin' : source, INPUT_LIMIT);
}

const INPUT_LIMIT = { maxBytes: 32 * 1024 * 1024, why: 'a request body is at most 32 MiB' };

function parseJsonInput(text: string, source: string): unknown {
  const name = source === '-' ? 'stdin' : source;
  if (text.trim() === '') throw new UsageError(`--input ${name} is empty; it must hold the JSON request body.`);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--input ${name} is not JSON: ${(err as Error).message}`);
  }
}

/** Status line and headers, as `curl -i` shows them, ending with the blank line before the body. */
function head(response: ApiResponse<unknown>): string {
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`.trimEnd()];
  for (const [name, value] of Object.entries(response.headers)) lines.push(`${name}: ${value}`);
  return lines.join('\n') + '\n\n';
}

/** Pretty JSON for a person at a terminal, one line for pipes and --json; text bodies as they came. */
async function writeBody(ctx: Context, data: unknown): Promise<void> {
  if (data === null || data === undefined) return;
  if (typeof data === 'string') {
    await ctx.out.write(forPerson(ctx, data.endsWith('\n') ? data : data + '\n'));
    return;
  }
  await ctx.out.write(jsonForPerson(ctx, stringifyWellFormed(data, ctx.out.mode === 'table' ? 2 : undefined)) + '\n');
}

/**
 * JSON stays JSON at a terminal too: its unsafe characters as \uXXXX escapes (jsonForTerminal),
 * not terminalSafe's \x9b, which made what it showed something no JSON reader accepts.
 */
function jsonForPerson(ctx: Context, json: string): string {
  return ctx.out.mode === 'table' ? jsonForTerminal(json) : json;
}

/**
 * At a terminal (no --json, stdout a TTY), text the service sent shows its control, bidi and
 * zero-width characters as escapes (JSON leaves C1 and bidi controls raw); a pipe gets it exact.
 */
function forPerson(ctx: Context, text: string): string {
  return ctx.out.mode === 'table' ? terminalSafe(text, { keepLines: true }) : text;
}
