/**
 * `msgctl exports download`: fetches a ready export's short-lived
 * `download_url` and streams the file to stdout or to `-o FILE`. The URL is
 * its own authorization, so no bearer credential is sent with it — and, like
 * a credential, it is never sent over plain http except to loopback. With -o
 * the file is written beside its target and renamed at the end
 * (output/file-output.ts), so an interrupted download never leaves a
 * truncated file under the requested name.
 *
 * A CSV export is made formula-safe for spreadsheets (formula-guard.ts)
 * unless --keep-formulas asks for the service's bytes as they are.
 */
import { pipeline } from 'node:stream/promises';
import type { Context } from '../context.js';
import { CliError, UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { writableOf } from '../output/direct-output.js';
import { ApiError } from '../api/errors.js';
import { isLoopbackHost } from '../api/loopback.js';
import { createTransport } from '../api/transport.js';
import { readText } from '../api/http.js';
import { waitForExport } from './follow.js';
import { EXPORT } from '../api/shapes.js';
import { cell } from '../output/terminal-text.js';

export async function downloadExport(ctx: Context, id: string, flags: { wait?: boolean; keepFormulas?: boolean }): Promise<void> {
  const client = await ctx.client();
  let current = await client.get(`/exports/${id}`, undefined, ctx.signal, EXPORT);
  if (current.status === 'running' && flags.wait) current = await waitForExport(client, id, ctx.signal, current, ctx.out);
  if (current.status !== 'ready' || !current.download_url) {
    throw new CliError(`Export ${id} is ${cell(current.status)}, not ready to download.`, ExitCode.Failure, [
      current.status === 'running' ? `Wait for it: msgctl exports download ${id} --wait` : 'Start a new export: msgctl exports create <conversation-id>',
    ]);
  }
  const url = downloadUrl(current.download_url, client.baseUrl);
  const response = await createTransport(ctx.env).request(url, {
    method: 'GET',
    signal: ctx.signal,
    headers: { accept: 'application/json, text/csv, application/problem+json' },
  });
  if (response.status !== 200) {
    const text = await readText(response.body);
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not a problem document; ApiError keeps the text as the detail.
    }
    const requestId = response.headers['x-request-id'];
    throw ApiError.fromResponse(response.status, body, typeof requestId === 'string' ? requestId : null);
  }
  // A download link's host may label a CSV anything (object stores serve application/octet-stream), so
  // the guard stands unless the file is JSON: by its type, or, when the type names neither JSON nor
  // CSV, by its first character.
  const type = String(response.headers['content-type'] ?? '').toLowerCase();
  const isJson = /^application\/(?:[\w.-]+\+)?json\b/.test(type);
  const isCsv = type.includes('csv');
  // -o FILE: ctx.io.stdout is that file (output/file-output.ts), renamed into place when the command succeeds.
  const toFile = ctx.opts.output !== undefined;
  const transforms: NodeJS.ReadWriteStream[] = [];
  if (!isJson && !flags.keepFormulas) transforms.push(new (await import('./formula-guard.js')).FormulaGuard({ passJson: !isCsv }));
  // Straight to a person's terminal: patients' text shows its control characters as escapes.
  if (!toFile && ctx.io.stdout.isTTY) transforms.push(new (await import('../output/terminal-stream.js')).TerminalSafeStream());
  const [first, ...rest] = [...transforms, writableOf(ctx.io.stdout)];
  await pipeline(response.body, first!, ...rest, { end: false, signal: ctx.signal });
  if (toFile) ctx.out.info(`Saved export ${id} to ${ctx.opts.output}.`);
}

/**
 * The link is a credential of its own: https, or plain http to loopback only. And a link to this
 * machine only from a service on it (the sandbox): a remote service must not make msgctl read a
 * local one (an admin port, a metadata service) into a file.
 */
export function downloadUrl(raw: string, apiBaseUrl: URL): URL {
  const url = new URL(raw);
  const safe = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!safe) throw new UsageError(`Refusing to fetch the download link over ${url.protocol}// from ${cell(url.host)}: it would expose the link.`);
  const service = apiBaseUrl.hostname;
  if (isLoopbackHost(url.hostname) && !isLoopbackHost(service)) {
    throw new CliError(`Refusing the download link to ${cell(url.host)}: it points at this machine, and the service (${cell(service)}) is not on it.`, ExitCode.Failure);
  }
  return url;
}
