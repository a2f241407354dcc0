/**
 * API objects of api-spec.md §2, written once and shared by the client (what it
 * parses) and the sandbox (what it serves). Field names follow the wire format.
 */

export type Uuid = string;
/** RFC 3339 UTC timestamp. */
export type Timestamp = string;
export type Channel = 'secure' | 'sms';
export type SenderKind = 'staff' | 'api_key' | 'patient';

export interface PhoneNumberRef {
  number: string;
  team: string;
}

export interface Organization {
  id: Uuid;
  name: string;
}

export interface DeliveryError {
  code: string;
  message: string;
}

/** queued → sent → delivered → opened, or failed / undelivered (sandbox choice, docs/sandbox.md). */
export type DeliveryStatus = 'queued' | 'sent' | 'delivered' | 'opened' | 'failed' | 'undelivered';

export interface Delivery {
  status: DeliveryStatus;
  error: DeliveryError | null;
  updated_at: Timestamp;
}

export interface Message {
  id: Uuid;
  conversation: { id: Uuid; title: string };
  sender: { id: Uuid; name: string; kind: SenderKind };
  patient?: { id: Uuid; name: string };
  channel: Channel;
  phone_number: PhoneNumberRef | null;
  delivery: Delivery | null;
  campaign_id: Uuid | null;
  created_at: Timestamp;
  edited_at: Timestamp | null;
  type: 'text';
  body: string;
  file: null;
  reply_to_message_id: Uuid | null;
  unread: boolean;
  sent_via: string | null;
}

/** Smaller shape of the conversation-scoped endpoints (§2.2, last paragraph). */
export interface ConversationMessage {
  id: Uuid;
  conversation_id: Uuid;
  sender_id: Uuid;
  created_at: Timestamp;
  type: 'text';
  body: string;
  file: null;
  reply_to_message_id: Uuid | null;
}

export interface Patient {
  id: Uuid;
  first_name: string;
  last_name: string;
  date_of_birth: string | null;
  phone: string | null;
  email: string | null;
  mrn: string | null;
  sms_opted_out: boolean;
  conversation_count: number;
  created_at: Timestamp;
  matched_by: 'mrn' | 'phone' | 'email' | null;
}

export interface PatientInput {
  first_name?: string;
  last_name?: string;
  date_of_birth?: string | null;
  phone?: string | null;
  email?: string | null;
  mrn?: string | null;
}

export type ConversationType = 'patient' | 'direct';

export interface PatientConversation {
  id: Uuid;
  organization_id: Uuid;
  type: 'patient';
  title: string;
  patient: { id: Uuid; name: string };
  phone_number: PhoneNumberRef;
  channel: Channel;
  created_at: Timestamp;
  last_message_at: Timestamp | null;
  unread_count: number;
  seen_at: Timestamp | null;
  messages_in_range: Message[] | null;
  latest_message: Message | null;
}

/** `/conversations/{id}` shows only these (§2.4, last line). */
export interface ConversationSummary {
  id: Uuid;
  organization_id: Uuid;
  type: ConversationType;
  created_at: Timestamp;
}

export type CampaignStatus = 'draft' | 'running' | 'paused' | 'completed' | 'stopped';

export interface CampaignCounts {
  recipients: number;
  pending: number;
  sent: number;
  delivered: number;
  failed: number;
  skipped: number;
}

export interface Campaign {
  id: Uuid;
  name: string;
  status: CampaignStatus;
  channel: Channel;
  body: string;
  phone_number: PhoneNumberRef;
  sender: { id: Uuid; name: string; kind: 'staff' | 'api_key' };
  send_interval_seconds: number;
  counts: CampaignCounts;
  archived: boolean;
  created_at: Timestamp;
  started_at: Timestamp | null;
  finished_at: Timestamp | null;
}

export type RecipientStatus =
  | 'pending'
  | 'sending'
  | 'sent'
  | 'delivered'
  | 'opened'
  | 'failed'
  | 'undelivered'
  | 'skipped'
  | 'cancelled';

export const RECIPIENT_STATUSES: readonly RecipientStatus[] = [
  'pending', 'sending', 'sent', 'delivered', 'opened', 'failed', 'undelivered', 'skipped', 'cancelled',
];

export interface CampaignRecipient {
  patient: { id: Uuid; name: string };
  status: RecipientStatus;
  message_id: Uuid | null;
  error: { code: string; message: string } | null;
  updated_at: Timestamp;
}

export type ImportStatus = 'running' | 'completed' | 'failed';

export interface ImportRowOutcome {
  row: number;
  outcome: 'created' | 'matched' | 'failed';
  patient_id: Uuid | null;
  matched_by: 'mrn' | 'phone' | 'email' | null;
  errors: FieldError[];
}

export interface PatientImport {
  id: string;
  status: ImportStatus;
  rows: number;
  created: number;
  matched: number;
  failed: number;
  results: ImportRowOutcome[] | null;
  created_at: Timestamp;
}

export interface Export {
  id: Uuid;
  status: 'running' | 'ready' | 'failed';
  conversation_id?: Uuid;
  created_at: Timestamp;
  download_url?: string;
  expires_at?: Timestamp;
}

export interface Reaction {
  message_id: Uuid;
  user_id: Uuid;
  emoji: string;
  created_at: Timestamp;
}

export interface Participant {
  user_id: Uuid;
  conversation_id: Uuid;
  joined_at: Timestamp;
}

export interface Profile {
  user: { id: Uuid; name: string; role: string };
  organization: Organization;
  app: { client_id: string; name: string };
  scopes: string[];
  expires_at: Timestamp;
}

export interface Pagination {
  next_cursor: string | null;
  has_more: boolean;
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export interface FieldError {
  path: string;
  code: string;
  message: string;
}

/** RFC 9457 problem, §7.1, plus extension members such as `candidates`. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail?: string;
  /** null in a problem msgctl makes of an answer that had no request id. */
  request_id: string | null;
  field_errors: FieldError[];
  [extension: string]: unknown;
}

export interface SendMessageRequest {
  to: { patient_id: Uuid } | { phone: string };
  patient?: {
    first_name?: string;
    last_name?: string;
    date_of_birth?: string;
    email?: string;
    mrn?: string;
  };
  body: string;
  channel?: Channel;
  from?: string;
}

export interface SendMessageResponse {
  message: Message;
  patient_created: boolean;
  conversation_created: boolean;
}

/** Limits of §8 that both sides enforce. */
export const LIMITS = {
  bodyMaxChars: 1600,
  pageDefault: 50,
  pageMax: 100,
  idempotencyWindowMs: 24 * 3600 * 1000,
  cursorLifetimeMs: 24 * 3600 * 1000,
  authCodeLifetimeMs: 10 * 60 * 1000,
  accessTokenLifetimeSeconds: 3600,
  /** Rows one patient import may hold (POST /patient-imports). */
  importMaxRows: 5000,
} as const;

/** Scopes of §5.3. */
export const SCOPES = [
  'messages.read',
  'messages.write',
  'patients.read',
  'patients.write',
  'offline_access',
  'messages:read',
  'conversations:read',
  'participants:read',
  // Not named by the spec: adding/removing participants needs a write scope (docs/conversation-scoped.md).
  'participants:write',
  'reactions:write',
  'exports:read',
] as const;
export type Scope = (typeof SCOPES)[number];

/** Webhook event types of §6.1, shared by the sandbox (sender) and `msgctl events` (receiver). */
export const EVENT_TYPES = [
  'conversation.message.created',
  'message.reaction.created',
  'message.reaction.deleted',
  'conversation.participant.added',
  'conversation.participant.removed',
  'export.ready',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The top-level fields of each object the CLI prints, in the spec's order:
 * what `--json FIELDS` and `--template` may name (an unknown name is exit 2
 * listing these, before any request).
 */
export const FIELDS = {
  organization: ['id', 'name'],
  message: ['id', 'conversation', 'sender', 'patient', 'channel', 'phone_number', 'delivery', 'campaign_id', 'created_at', 'edited_at', 'type', 'body', 'file', 'reply_to_message_id', 'unread', 'sent_via'],
  conversationMessage: ['id', 'conversation_id', 'sender_id', 'created_at', 'type', 'body', 'file', 'reply_to_message_id'],
  patient: ['id', 'first_name', 'last_name', 'date_of_birth', 'phone', 'email', 'mrn', 'sms_opted_out', 'conversation_count', 'created_at', 'matched_by'],
  conversation: ['id', 'organization_id', 'type', 'title', 'patient', 'phone_number', 'channel', 'created_at', 'last_message_at', 'unread_count', 'seen_at', 'messages_in_range', 'latest_message'],
  campaign: ['id', 'name', 'status', 'channel', 'body', 'phone_number', 'sender', 'send_interval_seconds', 'counts', 'archived', 'created_at', 'started_at', 'finished_at'],
  recipient: ['patient', 'status', 'message_id', 'error', 'updated_at'],
  import: ['id', 'status', 'rows', 'created', 'matched', 'failed', 'results', 'created_at'],
  export: ['id', 'status', 'conversation_id', 'created_at', 'download_url', 'expires_at'],
  reaction: ['message_id', 'user_id', 'emoji', 'created_at'],
  participant: ['user_id', 'conversation_id', 'joined_at'],
  profile: ['user', 'organization', 'app', 'scopes', 'expires_at'],
  staff: ['id', 'name', 'email', 'role'],
  webhookEndpoint: ['id', 'url', 'events', 'created_at', 'secret'],
} as const satisfies Record<string, readonly string[]>;

// Each list names every field of its type and nothing else (a type error here when api-spec's shapes change).
type Exactly<T, K extends readonly string[]> = [Exclude<keyof T, K[number]>, Exclude<K[number], keyof T>] extends [never, never] ? true : never;
export const FIELDS_MATCH_TYPES: [
  Exactly<Organization, typeof FIELDS.organization>,
  Exactly<Message, typeof FIELDS.message>,
  Exactly<ConversationMessage, typeof FIELDS.conversationMessage>,
  Exactly<Patient, typeof FIELDS.patient>,
  Exactly<PatientConversation, typeof FIELDS.conversation>,
  Exactly<Campaign, typeof FIELDS.campaign>,
  Exactly<CampaignRecipient, typeof FIELDS.recipient>,
  Exactly<PatientImport, typeof FIELDS.import>,
  Exactly<Export, typeof FIELDS.export>,
  Exactly<Reaction, typeof FIELDS.reaction>,
  Exactly<Participant, typeof FIELDS.participant>,
  Exactly<Profile, typeof FIELDS.profile>,
] = [true, true, true, true, true, true, true, true, true, true, true, true];
