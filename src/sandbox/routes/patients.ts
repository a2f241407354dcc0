/**
 * Patients (api-spec §4.7): create-or-match, find by phone/MRN, retrieve,
 * PATCH and DELETE. The rules live in domain/patients.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.js';
import { apiRoute, type ApiRequest } from '../http/route.js';
import { refuseEmptyFilters } from './empty-filter.js';
import { problems } from '../problem.js';
import { pageOf } from '../domain/paging.js';
import { patientView } from '../domain/views.js';
import { rosterTexts } from '../domain/patient-texts.js';
import {
  createOrMatchPatient,
  deletePatient,
  findPatient,
  orgPatients,
  updatePatient,
  validatePatientFields,
} from '../domain/patients.js';
import type { PatientRecord } from '../domain/records.js';
import { normalizePhone } from '../validation/phone.js';
import { fieldsOf, nullable } from '../http/body-shape.js';

export function registerPatientRoutes(app: FastifyInstance, sb: SandboxContext): void {
  apiRoute(app, sb, {
    method: 'POST',
    url: '/patients',
    body: fieldsOf('first_name', 'last_name', 'date_of_birth', 'phone', 'email', 'mrn'),
    scope: 'patients.write',
    idempotent: true,
    handler: (req) => {
      const { fields, errors } = validatePatientFields(req.body, 'create');
      if (errors.length) throw problems.validation(errors);
      const { patient, matchedBy, created } = createOrMatchPatient(sb, req.principal.orgId, fields);
      return { status: created ? 201 : 200, body: patientView(sb, patient, matchedBy) };
    },
  });

  apiRoute(app, sb, {
    method: 'GET',
    url: '/patients',
    scope: 'patients.read',
    query: ['phone', 'mrn'],
    paged: true,
    handler: (req) => {
      const rawPhone = req.query.phone;
      const rawMrn = req.query.mrn;
      // A filter that is present but empty is a mistake (an unset shell variable), not "no filter":
      // answering with the whole roster could feed a destructive script.
      refuseEmptyFilters(req, ['phone', 'mrn'], 'to list every patient');
      const mrn = rawMrn?.trim();
      let phone: string | undefined;
      if (rawPhone !== undefined) {
        const normalized = normalizePhone(rawPhone, 'US');
        if (!normalized.ok) throw problems.validation([{ path: 'phone', code: 'invalid', message: `phone is not a usable phone number: ${normalized.reason}.` }]);
        phone = normalized.e164;
      }
      const list = `patients:${phone ?? ''}:${mrn ?? ''}`;
      // One row more than the page tells pageOf whether another page follows.
      const rows = (after: { key: number | string; id: string } | null) => rosterTexts(sb, req.principal.orgId, { phone, mrn }, after, req.page.limit + 1);
      const page = pageOf(sb, req.page, list, rows, (p) => p.created_at, (p) => p.json);
      // The rows are JSON texts already (patient-texts.ts): spliced, not parsed and serialised again.
      return { status: 200, json: `{"data":[${page.data.join(',')}],"pagination":${JSON.stringify(page.pagination)}}` };
    },
  });

  apiRoute(app, sb, {
    method: 'GET',
    url: '/patients/:patientId',
    scope: 'patients.read',
    handler: (req) => ({ status: 200, body: patientView(sb, patientFromPath(sb, req)) }),
  });

  apiRoute(app, sb, {
    method: 'PATCH',
    url: '/patients/:patientId',
    // api-spec §4.7: null clears date_of_birth, phone, email and mrn; names are never null.
    body: { ...fieldsOf('first_name', 'last_name'), ...nullable('date_of_birth', 'phone', 'email', 'mrn') },
    scope: 'patients.write',
    handler: (req) => {
      const patient = patientFromPath(sb, req);
      const { fields, errors } = validatePatientFields(req.body, 'update');
      if (errors.length) throw problems.validation(errors);
      const conflicts = updatePatient(sb, patient, fields);
      if (conflicts.length) throw problems.validation(conflicts);
      return { status: 200, body: patientView(sb, patient) };
    },
  });

  apiRoute(app, sb, {
    method: 'DELETE',
    url: '/patients/:patientId',
    scope: 'patients.write',
    handler: (req) => {
      deletePatient(sb, patientFromPath(sb, req));
      return { status: 204 };
    },
  });
}

/** The path's patient (its id is a UUID: route.ts checked it); an unknown or other organization's id is 404. */
function patientFromPath(sb: SandboxContext, req: ApiRequest): PatientRecord {
  const patient = findPatient(sb, req.principal.orgId, req.params.patientId!);
  if (!patient) throw problems.notFound('Patient');
  return patient;
}
