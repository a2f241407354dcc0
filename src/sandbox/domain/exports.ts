/**
 * Conversation exports (api-spec §2.8; starting one is not shown there, see
 * docs/conversation-scoped.md "Exports"). An export is started by an app user
 * for one conversation, runs in the background (workers/export-runner.ts) and
 * becomes `ready`. Its file is fetched from a short-lived download URL that
 * carries its own proof (an HMAC over export id and expiry), so the download
 * needs no bearer credential and a leaked URL stops working after 5 minutes.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ConversationMessage, Export } from '../../contract/api.js';
import type { SandboxContext } from '../context.js';
import type { MessageRecord } from './records.js';
import { conversationMessageView } from './views.js';

export type ExportFormat = 'json' | 'csv';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['json', 'csv'];

/** How long a download URL works, in sandbox time. */
export const DOWNLOAD_URL_LIFETIME_MS = 5 * 60 * 1000;

export interface ExportRecord {
  id: string;
  orgId: string;
  conversationId: string;
  /** The app user and the app that started it: only they can see it, and only that app gets export.ready. */
  userId: string;
  clientId: string;
  format: ExportFormat;
  status: 'running' | 'ready';
  created_at: string;
  ready_at: string | null;
  /** Messages up to this store sequence number are in the file (fixed when it becomes ready). */
  lastSeq: number | null;
}

export function exportsTable(sb: SandboxContext) {
  return sb.store.table<ExportRecord>('exports');
}

export function exportView(sb: SandboxContext, e: ExportRecord): Export & { format: ExportFormat } {
  const view: Export & { format: ExportFormat } = {
    id: e.id,
    status: e.status,
    conversation_id: e.conversationId,
    format: e.format,
    created_at: e.created_at,
  };
  if (e.status === 'ready') {
    const expiresMs = sb.clock.now() + DOWNLOAD_URL_LIFETIME_MS;
    view.download_url = downloadUrl(sb, e.id, expiresMs);
    view.expires_at = sb.clock.iso(expiresMs);
  }
  return view;
}

export function downloadPath(exportId: string): string {
  return `/downloads/exports/${exportId}`;
}

function downloadUrl(sb: SandboxContext, exportId: string, expiresMs: number): string {
  const expires = Math.floor(expiresMs / 1000);
  const url = new URL(downloadPath(exportId), sb.origin);
  url.searchParams.set('expires', String(expires));
  url.searchParams.set('token', downloadToken(sb, exportId, expires));
  return url.toString();
}

export type DownloadCheck = 'ok' | 'expired' | 'forbidden';

export function checkDownload(sb: SandboxContext, exportId: string, expires: string | undefined, token: string | undefined): DownloadCheck {
  if (!expires || !token || !/^\d{1,12}$/.test(expires)) return 'forbidden';
  const expected = Buffer.from(downloadToken(sb, exportId, Number(expires)));
  const given = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forbidden';
  return Number(expires) * 1000 <= sb.clock.now() ? 'expired' : 'ok';
}

function downloadToken(sb: SandboxContext, exportId: string, expires: number): string {
  return createHmac('sha256', downloadKey(sb)).update(`${exportId}.${expires}`).digest('base64url');
}

/** One random key per sandbox world (kept with --data, so URLs survive a restart). */
function downloadKey(sb: SandboxContext): Buffer {
  const keys = sb.store.table<{ id: string; key: string }>('export_download_keys');
  let row = keys.get('current');
  if (!row) {
    row = keys.put({ id: 'current', key: randomBytes(32).toString('base64') });
    sb.store.changed();
  }
  return Buffer.from(row.key, 'base64');
}

/** The exported messages, oldest first, generated lazily so a long history is streamed. */
export function* exportedMessages(sb: SandboxContext, e: ExportRecord): Generator<ConversationMessage> {
  const rows = sb.db.messages.where('conversation_id = ? AND seq <= ?', [e.conversationId, e.lastSeq ?? 0], 'created_ms, id');
  for (const m of rows) yield conversationMessageView(m);
}

/** The file's contents in chunks: a JSON document or CSV with a header row. */
export function* exportFile(sb: SandboxContext, e: ExportRecord): Generator<string> {
  if (e.format === 'csv') {
    const columns = ['id', 'conversation_id', 'sender_id', 'created_at', 'type', 'body', 'reply_to_message_id'] as const;
    yield columns.join(',') + '\r\n';
    for (const m of exportedMessages(sb, e)) yield columns.map((c) => csvField(m[c])).join(',') + '\r\n';
    return;
  }
  const header = { id: e.id, conversation_id: e.conversationId, created_at: e.created_at, ready_at: e.ready_at };
  yield `{"export":${JSON.stringify(header)},"messages":[`;
  let first = true;
  for (const m of exportedMessages(sb, e)) {
    yield (first ? '' : ',') + JSON.stringify(m);
    first = false;
  }
  yield ']}\n';
}

function csvField(value: string | null): string {
  if (value === null) return '';
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
