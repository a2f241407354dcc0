/**
 * Exports: GET /exports/{id} of api-spec §4.9, starting one
 * (POST /conversations/{id}/exports, implied by export.ready), and the file
 * behind a download URL (docs/conversation-scoped.md "Exports").
 *
 * An export is visible only to the app and app user who started it: anyone
 * else gets 404. The download is outside /v1 and takes no credential — the
 * URL carries an expiring signature instead, like a pre-signed storage link.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { apiRoute } from '../http/route.js';
import { FieldErrors, ProblemError, problems } from '../problem.js';
import { memberConversation } from '../domain/conversation-access.js';
import {
  checkDownload,
  downloadPath,
  EXPORT_FORMATS,
  exportFile,
  exportsTable,
  exportView,
  type ExportFormat,
} from '../domain/exports.js';
import { looksLikeUuid } from '../validation/formats.js';
import { fieldsOf } from '../http/body-shape.js';

export function registerExportRoutes(app: FastifyInstance, sb: SandboxContext): void {
  apiRoute(app, sb, {
    method: 'POST',
    url: '/conversations/:conversationId/exports',
    body: fieldsOf('format'),
    // No export-writing scope exists in §5.3; an export only reads, so exports:read it is.
    scope: 'exports:read',
    credentials: ['oauth'],
    style: 'legacy',
    idempotent: true,
    handler: (req) => {
      const conversation = memberConversation(sb, req.principal, req.params.conversationId!);
      const body = (req.body ?? {}) as { format?: unknown };
      const errors = new FieldErrors();
      if (body.format !== undefined && !EXPORT_FORMATS.includes(body.format as ExportFormat)) {
        errors.add('/format', 'invalid_choice', `format must be one of ${EXPORT_FORMATS.join(', ')}.`);
      }
      errors.throwIfAny();
      const record = exportsTable(sb).insert({
        id: sb.newId(),
        orgId: conversation.orgId,
        conversationId: conversation.id,
        userId: req.principal.userId!,
        clientId: req.principal.app?.clientId ?? '',
        format: (body.format as ExportFormat | undefined) ?? 'json',
        status: 'running',
        created_at: sb.clock.iso(),
        ready_at: null,
        lastSeq: null,
      });
      sb.store.changed();
      sb.events.emit('export.requested', record);
      return { status: 202, body: exportView(sb, record) };
    },
  });

  apiRoute(app, sb, {
    method: 'GET',
    url: '/exports/:exportId',
    scope: 'exports:read',
    credentials: ['oauth'],
    style: 'legacy',
    handler: (req) => {
      const record = exportsTable(sb).get(req.params.exportId!);
      const mine =
        record &&
        record.orgId === req.principal.orgId &&
        record.userId === req.principal.userId &&
        record.clientId === (req.principal.app?.clientId ?? '');
      if (!mine) throw problems.notFound('Export');
      return { status: 200, body: exportView(sb, record) };
    },
  });

  app.get(downloadPath(':exportId'), async (request, reply) => {
    const { exportId } = request.params as { exportId: string };
    const { expires, token } = request.query as { expires?: string; token?: string };
    const record = looksLikeUuid(exportId) ? exportsTable(sb).get(exportId.toLowerCase()) : undefined;
    const check = record ? checkDownload(sb, record.id, expires, token) : 'forbidden';
    // Wrong or missing proof looks the same whether or not the export exists.
    if (!record || check === 'forbidden') {
      throw new ProblemError(403, 'download_forbidden', 'This download link is not valid. Fetch the export again for a fresh download_url.');
    }
    if (check === 'expired') {
      // 403 as a pre-signed storage link answers once expired: §7.2 has no 410.
      throw new ProblemError(403, 'download_expired', 'This download link has expired. Fetch the export again for a fresh download_url.');
    }
    const csv = record.format === 'csv';
    reply
      .type(csv ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="conversation-${record.conversationId}.${record.format}"`)
      .header('cache-control', 'no-store');
    return reply.send(Readable.from(exportFile(sb, record)));
  });
}
