/**
 * The shape of each answer msgctl reads (api-spec.md §2), as the client checks
 * it (answer-shape.ts). Each is typed against the contract's object, so a
 * field added to or dropped from the contract is a type error until its shape
 * follows. Nullable fields of the contract are `?` here, and so may also be
 * absent: a service that leaves out an empty field is not wrong enough to stop
 * a command.
 */
import type {
  Campaign,
  CampaignRecipient,
  Export,
  ImportRowOutcome,
  Message,
  Organization,
  Participant,
  Patient,
  PatientConversation,
  PatientImport,
  Profile,
  Reaction,
  SendMessageResponse,
  ConversationMessage,
} from '../../contract/api.js';
import { listOf, nested, optionalListOf, optionalNested, type Fields, type Shape } from './answer-shape.js';

const PERSON_REF = nested({ id: 'string', name: 'string' });
const PHONE_NUMBER = { number: 'string', team: 'string' } as const;

export const ORGANIZATION: Shape<Organization> = {
  name: 'an organization',
  fields: { id: 'string', name: 'string' },
};

const MESSAGE_FIELDS: Shape<Message>['fields'] = {
  id: 'string',
  conversation: nested({ id: 'string', title: 'string' }),
  sender: nested({ id: 'string', name: 'string', kind: 'string' }),
  patient: optionalNested({ id: 'string', name: 'string' }),
  channel: 'string',
  phone_number: optionalNested(PHONE_NUMBER),
  delivery: optionalNested({ status: 'string', error: optionalNested({ code: 'string', message: 'string' }), updated_at: 'string' }),
  campaign_id: 'string?',
  created_at: 'string',
  edited_at: 'string?',
  type: 'string',
  body: 'string',
  file: 'object?',
  reply_to_message_id: 'string?',
  unread: 'boolean',
  sent_via: 'string?',
};

export const MESSAGE: Shape<Message> = { name: 'a message', fields: MESSAGE_FIELDS };

export const CONVERSATION_MESSAGE: Shape<ConversationMessage> = {
  name: 'a message',
  fields: {
    id: 'string',
    conversation_id: 'string',
    sender_id: 'string',
    created_at: 'string',
    type: 'string',
    body: 'string',
    file: 'object?',
    reply_to_message_id: 'string?',
  },
};

export const SENT_MESSAGE: Shape<SendMessageResponse> = {
  name: 'the message it sent',
  fields: { message: nested(MESSAGE_FIELDS), patient_created: 'boolean', conversation_created: 'boolean' },
};

export const PATIENT: Shape<Patient> = {
  name: 'a patient',
  fields: {
    id: 'string',
    first_name: 'string',
    last_name: 'string',
    date_of_birth: 'string?',
    phone: 'string?',
    email: 'string?',
    mrn: 'string?',
    sms_opted_out: 'boolean',
    conversation_count: 'number',
    created_at: 'string',
    matched_by: 'string?',
  },
};

export const CONVERSATION: Shape<PatientConversation> = {
  name: 'a conversation',
  fields: {
    id: 'string',
    organization_id: 'string',
    type: 'string',
    title: 'string',
    patient: PERSON_REF,
    phone_number: nested(PHONE_NUMBER),
    channel: 'string',
    created_at: 'string',
    last_message_at: 'string?',
    unread_count: 'number',
    seen_at: 'string?',
    messages_in_range: 'array?',
    latest_message: optionalNested(MESSAGE_FIELDS),
  },
};

const CAMPAIGN_COUNTS: Fields = {
  recipients: 'number',
  pending: 'number',
  sent: 'number',
  delivered: 'number',
  failed: 'number',
  skipped: 'number',
};

export const CAMPAIGN: Shape<Campaign> = {
  name: 'a campaign',
  fields: {
    id: 'string',
    name: 'string',
    status: 'string',
    channel: 'string',
    body: 'string',
    phone_number: nested(PHONE_NUMBER),
    sender: nested({ id: 'string', name: 'string', kind: 'string' }),
    send_interval_seconds: 'number',
    counts: nested(CAMPAIGN_COUNTS),
    archived: 'boolean',
    created_at: 'string',
    started_at: 'string?',
    finished_at: 'string?',
  },
};

export const RECIPIENT: Shape<CampaignRecipient> = {
  name: 'a campaign recipient',
  fields: {
    patient: PERSON_REF,
    status: 'string',
    message_id: 'string?',
    error: optionalNested({ code: 'string', message: 'string' }),
    updated_at: 'string',
  },
};

/** One row's outcome in a finished import's `results`; also checked one by one where results are read raw (imports/results.ts). */
export const ROW_OUTCOME: Shape<ImportRowOutcome> = {
  name: 'a row outcome',
  fields: {
    row: 'number',
    outcome: 'string',
    patient_id: 'string?',
    matched_by: 'string?',
    errors: listOf({ path: 'string', code: 'string', message: 'string' }),
  },
};

export const IMPORT: Shape<PatientImport> = {
  name: 'a patient import',
  fields: {
    id: 'string',
    status: 'string',
    rows: 'number',
    created: 'number',
    matched: 'number',
    failed: 'number',
    results: optionalListOf(ROW_OUTCOME.fields),
    created_at: 'string',
  },
};

export const EXPORT: Shape<Export> = {
  name: 'an export',
  fields: {
    id: 'string',
    status: 'string',
    conversation_id: 'string?',
    created_at: 'string',
    download_url: 'string?',
    expires_at: 'string?',
  },
};

export const REACTION: Shape<Reaction> = {
  name: 'a reaction',
  fields: { message_id: 'string', user_id: 'string', emoji: 'string', created_at: 'string' },
};

export const PARTICIPANT: Shape<Participant> = {
  name: 'a participant',
  fields: { user_id: 'string', conversation_id: 'string', joined_at: 'string' },
};

export const PROFILE: Shape<Profile> = {
  name: 'the profile of the credential',
  fields: {
    user: nested({ id: 'string', name: 'string', role: 'string' }),
    organization: nested({ id: 'string', name: 'string' }),
    app: nested({ client_id: 'string', name: 'string' }),
    scopes: 'array',
    expires_at: 'string',
  },
};

export const STAFF_MEMBER: Shape<{ id: string; name: string; email: string; role: string }> = {
  name: 'a staff member',
  fields: { id: 'string', name: 'string', email: 'string', role: 'string' },
};

export const WEBHOOK_ENDPOINT: Shape<{ id: string; url: string; events: string[] | null; created_at: string; secret?: string }> = {
  name: 'a webhook endpoint',
  fields: { id: 'string', url: 'string', events: 'array?', created_at: 'string', secret: 'string?' },
};

/** The answer to POST /webhook-endpoints: the only time the signing secret is shown, so it must be there. */
export const CREATED_WEBHOOK_ENDPOINT: Shape<{ id: string; url: string; events: string[] | null; created_at: string; secret: string }> = {
  name: 'a new webhook endpoint with its signing secret',
  fields: { ...WEBHOOK_ENDPOINT.fields, secret: 'string' },
};

export const ADDED_RECIPIENTS: Shape<{ added: string[]; already_present: string[]; not_found: string[]; campaign: Campaign }> = {
  name: 'the outcome of adding recipients',
  fields: { added: 'array', already_present: 'array', not_found: 'array', campaign: nested(CAMPAIGN.fields) },
};

export const REMOVED_RECIPIENTS: Shape<{ removed: string[]; not_found: string[]; not_removable: string[]; campaign: Campaign }> = {
  name: 'the outcome of removing recipients',
  fields: { removed: 'array', not_found: 'array', not_removable: 'array', campaign: nested(CAMPAIGN.fields) },
};

/**
 * POST /me/conversations/{id}/messages: api-spec.md §4.8 says "201 with the sent message" but
 * does not show its shape, so only what `me send` reads is required of it.
 */
export const ME_SENT_MESSAGE: Shape<Pick<Message, 'id' | 'conversation' | 'sender' | 'created_at'>> = {
  name: 'the message it sent',
  fields: { id: 'string', conversation: nested({ id: 'string', title: 'string' }), sender: nested({ name: 'string' }), created_at: 'string' },
};
