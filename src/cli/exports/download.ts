/**
 * `msgctl exports download`: fetches a ready export's short-lived
 * `download_url` and streams the file to stdout or to `-o FILE`. The URL is
 * its own authorization, so no bearer credential is sent with it — and, like
 * a credential, it is never sent over plain http except to loopback. A file
 * is written beside its target and renamed at the end, so an interrupted
 * download never leaves a truncated file under the requested name.
 *
 * A CSV export is made formula-safe for spreadsheets (formula-guard.ts)
 * unless --keep-formulas asks for the service's bytes as they are.
 */
import { constants } from 'node:fs';
import { lstat, open, unlink } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Context } from '../context.js';
import type { Export } from '../../contract/api.js';
import { CliError, UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { writableOf } from '../output/direct-output.js';
import { ApiError } from '../api/errors.js';
import { createTransport, isLoopbackHost } from '../api/transport.js';
import { readText } from '../api/http.js';
import { waitForExport } from './follow.js';

export async function downloadExport(ctx: Context, id: string, flags: { output?: string; wait?: boolean; keepFormulas?: boolean }): Promise<void> {
  const client = await ctx.client();
  let current = await client.get<Export>(`/exports/${id}`, undefined, ctx.signal);
  if (current.status === 'running' && flags.wait) current = await waitForExport(client, id, ctx.signal, current);
  if (current.status !== 'ready' || !current.download_url) {
    throw new CliError(`Export ${id} is ${current.status}, not ready to download.`, ExitCode.Failure, [
      current.status === 'running' ? `Wait for it: msgctl exports download ${id} --wait` : 'Start a new export: msgctl exports create <conversation-id>',
    ]);
  }
  const url = downloadUrl(current.download_url);
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
  const isCsv = String(response.headers['content-type'] ?? '').toLowerCase().startsWith('text/csv');
  const output = flags.output && flags.output !== '-' ? flags.output : null;
  const toStdout = output === null;
  const transforms: NodeJS.ReadWriteStream[] = [];
  if (isCsv && !flags.keepFormulas) transforms.push(new (await import('./formula-guard.js')).FormulaGuard());
  // Straight to a person's terminal: patients' text shows its control characters as escapes.
  if (toStdout && ctx.io.stdout.isTTY) transforms.push(new (await import('../output/terminal-stream.js')).TerminalSafeStream());
  const copyTo = (destination: NodeJS.WritableStream, options: { end?: boolean }) => {
    const [first, ...rest] = [...transforms, destination];
    return pipeline(response.body, first!, ...rest, { ...options, signal: ctx.signal });
  };
  if (output === null) {
    await copyTo(writableOf(ctx.io.stdout), { end: false });
    return;
  }
  const partial = `${output}.partial`;
  const handle = await openPartial(partial);
  try {
    await copyTo(handle.createWriteStream({ flush: true }), {});
    // On Windows the target may be open in Excel: retried, then kept as .partial with a hint.
    const { replaceFile } = await import('../util/replace-file.js');
    await replaceFile(partial, output, { keepTempOnFailure: true });
  } catch (err) {
    if ((err as Error).name !== 'FileInUseError') await unlink(partial).catch(() => undefined);
    throw err;
  }
  ctx.out.info(`Saved export ${id} to ${output}.`);
}

/**
 * Creates FILE.partial for this download only: exclusive (never an existing
 * file, which could belong to another user and keep their owner and mode
 * while PHI is written into it) and no-follow (never through a symlink
 * planted at that name). A leftover of our own interrupted download, a
 * regular file owned by us, is removed first; anything else is refused.
 */
async function openPartial(partial: string) {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  try {
    return await open(partial, flags, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new UsageError(`Cannot create ${partial}: ${(err as Error).message}`);
  }
  const existing = await lstat(partial);
  const ours = existing.isFile() && existing.nlink === 1 && (process.getuid === undefined || existing.uid === process.getuid());
  if (!ours) {
    throw new UsageError(`${partial} already exists and is not a download of yours; refusing to write the export through it.`, [
      'Remove it (or pick another -o), then download again.',
    ]);
  }
  await unlink(partial);
  try {
    return await open(partial, flags, 0o600);
  } catch (err) {
    throw new UsageError(`Cannot create ${partial}: ${(err as Error).message}`);
  }
}

/** The link is a credential of its own: https, or plain http to loopback only. */
function downloadUrl(raw: string): URL {
  const url = new URL(raw);
  const safe = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
  if (!safe) throw new UsageError(`Refusing to fetch the download link over ${url.protocol}// from ${url.host}: it would expose the link.`);
  return url;
}
