/**
 * POST /_sandbox/inbound: the sandbox's stand-in for the phone network, so a
 * test or a person can make a patient reply (and say STOP or START). Not part
 * of the API and needs no credential, so its answer carries no patient data;
 * documented in docs/sandbox.md.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { FieldErrors, ProblemError } from '../problem.js';
import { receiveInbound } from '../domain/inbound.js';
import { normalizePhone } from '../validation/phone.js';
import { fieldsOf } from '../http/body-shape.js';
import { checkControlRequest } from '../http/control.js';

export function registerInboundRoutes(app: FastifyInstance, sb: SandboxContext): void {
  app.post('/_sandbox/inbound', async (request, reply) => {
    checkControlRequest(request, fieldsOf('from', 'to', 'body'));
    const body = (request.body ?? {}) as Record<string, unknown>;
    const errors = new FieldErrors();
    const phone = (field: 'from' | 'to') => {
      const value = body[field];
      const result = typeof value === 'string' ? normalizePhone(value, 'US') : null;
      if (result?.ok) return result.e164;
      errors.add(`/${field}`, value === undefined ? 'required' : 'invalid', `${field} must be a phone number.`);
      return '';
    };
    const from = phone('from');
    const to = phone('to');
    if (typeof body.body !== 'string' || !body.body.trim()) errors.add('/body', 'required', 'body must be a non-empty string.');
    errors.throwIfAny();
    const number = sb.db.phoneNumbers.find((n) => n.number === to);
    if (!number) throw new ProblemError(404, 'not_found', `${to} is not a clinic number of any sandbox organization.`);
    const record = receiveInbound(sb, number, from, body.body as string);
    // No credential, so the answer names no patient: only the new message's id and what the
    // caller sent. A Message here would tell anyone the name and id of whoever has a phone
    // (at any organization's number); reading the message takes that organization's credential.
    reply.code(201).type('application/json; charset=utf-8');
    return JSON.stringify({ id: record.id, from, to, body: record.body, created_at: record.created_at });
  });
}
