/**
 * POST /patient-messages and GET /patient-messages/{id} (api-spec §4.4). The
 * list (GET /patient-messages) lives in patient-messages-list.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { apiRoute } from '../http/route.js';
import { problems } from '../problem.js';
import { messageView } from '../domain/views.js';
import { sendPatientMessage, senderFromPrincipal } from '../domain/patient-messages.js';
import { fieldsOf, type BodyShape } from '../http/body-shape.js';

/**
 * api-spec §4.4. `patient.phone` is accepted and ignored (the phone comes from `to`),
 * as docs/sandbox.md says; nothing in this body is nullable.
 */
const SEND_BODY: BodyShape = {
  to: { fields: fieldsOf('patient_id', 'phone') },
  patient: { fields: fieldsOf('first_name', 'last_name', 'date_of_birth', 'email', 'mrn', 'phone') },
  ...fieldsOf('body', 'channel', 'from'),
};

export function registerPatientMessageRoutes(app: FastifyInstance, sb: SandboxContext): void {
  apiRoute(app, sb, {
    method: 'POST',
    url: '/patient-messages',
    body: SEND_BODY,
    scope: 'messages.write',
    idempotent: true,
    handler: (req) => {
      const { response } = sendPatientMessage(sb, senderFromPrincipal(req.principal), req.body);
      return { status: 201, body: response };
    },
  });

  apiRoute(app, sb, {
    method: 'GET',
    url: '/patient-messages/:messageId',
    scope: 'messages.read',
    handler: (req) => {
      const message = sb.db.messages.get(req.params.messageId!);
      // Only messages of patient conversations in the caller's organization are visible here.
      if (!message || message.orgId !== req.principal.orgId || !message.patientId) throw problems.notFound('Message');
      return { status: 200, body: messageView(sb, message) };
    },
  });
}
