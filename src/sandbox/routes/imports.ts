import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { apiRoute } from '../http/route.js';
import { problems } from '../problem.js';
import { createImport, findImport, importView, parseImportBody } from '../domain/imports.js';
import { fieldsOf } from '../http/body-shape.js';

/**
 * Patient imports (api-spec §4.7). The spec names "create a patient import"
 * without a path or body; the sandbox's choice, POST /patient-imports with
 * `{rows: [...]}` answered 202, is documented in docs/imports.md. Both
 * endpoints take patients.write, the scope the spec gives the GET.
 */
export function registerImportRoutes(app: FastifyInstance, sb: SandboxContext): void {
  apiRoute(app, sb, {
    method: 'POST',
    url: '/patient-imports',
    // Each row: its number and the fields of POST /patients, under the same rule (unknown or null: 422).
    body: { rows: { items: fieldsOf('row', 'first_name', 'last_name', 'date_of_birth', 'phone', 'email', 'mrn') } },
    scope: 'patients.write',
    idempotent: true,
    // Up to 5,000 rows of up to 200-character fields: more than the 1 MB that fits every other request.
    bodyLimit: 16 * 1024 * 1024,
    handler: (req) => {
      const rows = parseImportBody(req.body);
      const record = createImport(sb, req.principal.orgId, rows);
      return { status: 202, body: importView(record), headers: { location: `/v1/patient-imports/${record.id}` } };
    },
  });

  apiRoute(app, sb, {
    method: 'GET',
    url: '/patient-imports/:importId',
    scope: 'patients.write',
    // §2.7: an import id is a string (`imp_…` in the sample), not a UUID.
    textParams: ['importId'],
    handler: (req) => {
      const record = findImport(sb, req.principal.orgId, req.params.importId ?? '');
      if (!record) throw problems.notFound('Patient import');
      return { status: 200, body: importView(record) };
    },
  });
}
