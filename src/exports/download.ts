/**
 * `msgctl exports download`: fetches a ready export's short-lived
 * `download_url` and streams the file to stdout or to `-o FILE`. The URL is
 * its own authorization, so no bearer credential is sent with it — and, like
 * a credential, it is never sent over plain http except to loopback. A file
 * is written beside its target and renamed at the end, so an interrupted
 * download never leaves a truncated file under the requested name.
 */
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { request } from 'undici';
import type { Context } from '../context.js';
import type { Export } from '../types/api.js';
import { CliError, UsageError } from '../errors.js';
import { ExitCode } from '../output/exit-codes.js';
import { ApiError } from '../api/errors.js';
import { createDispatcher, isLoopbackHost } from '../api/transport.js';
import { waitForExport } from './follow.js';

export async function downloadExport(ctx: Context, id: string, flags: { output?: string; wait?: boolean }): Promise<void> {
  const client = await ctx.client();
  let current = await client.get<Export>(`/exports/${id}`, undefined, ctx.signal);
  if (current.status === 'running' && flags.wait) current = await waitForExport(client, id, ctx.signal, current);
  if (current.status !== 'ready' || !current.download_url) {
    throw new CliError(`Export ${id} is ${current.status}, not ready to download.`, ExitCode.Failure, [
      current.status === 'running' ? `Wait for it: msgctl exports download ${id} --wait` : 'Start a new export: msgctl exports create <conversation-id>',
    ]);
  }
  const url = downloadUrl(current.download_url);
  const response = await request(url, {
    method: 'GET',
    dispatcher: createDispatcher(ctx.env),
    signal: ctx.signal,
    headers: { accept: 'application/json, text/csv, application/problem+json' },
  });
  if (response.statusCode !== 200) {
    const text = await response.body.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not a problem document; ApiError keeps the text as the detail.
    }
    const requestId = response.headers['x-request-id'];
    throw ApiError.fromResponse(response.statusCode, body, typeof requestId === 'string' ? requestId : null);
  }
  if (!flags.output || flags.output === '-') {
    await pipeline(response.body, ctx.io.stdout, { end: false });
    return;
  }
  const partial = `${flags.output}.partial`;
  try {
    await pipeline(response.body, createWriteStream(partial, { mode: 0o600 }));
    // On Windows the target may be open in Excel: retried, then kept as .partial with a hint.
    const { replaceFile } = await import('../util/replace-file.js');
    await replaceFile(partial, flags.output, { keepTempOnFailure: true });
  } catch (err) {
    if ((err as Error).name !== 'FileInUseError') await rm(partial, { force: true });
    throw err;
  }
  ctx.out.info(`Saved export ${id} to ${flags.output}.`);
}

/** The link is a credential of its own: https, or plain http to loopback only. */
function downloadUrl(raw: string): URL {
  const url = new URL(raw);
  const safe = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!safe) throw new UsageError(`Refusing to fetch the download link over ${url.protocol}// from ${url.host}: it would expose the link.`);
  return url;
}
