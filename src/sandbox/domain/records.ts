/**
 * The sandbox's internal records: what it stores, as opposed to the API
 * shapes of src/contract/api.ts that it serves (views.ts turns one into the
 * other). Domains added later declare their own records beside their code.
 */
import type { Channel, ConversationType, DeliveryError, DeliveryStatus, SenderKind } from '../../contract/api.js';
import type { SandboxStore } from '../store/store.js';

export interface OrgRecord {
  id: string;
  name: string;
  timeZone: string;
  /** OAuth apps (client ids) an org admin has approved for this organization. */
  approvedClientIds: string[];
}

export interface PhoneNumberRecord {
  id: string;
  orgId: string;
  number: string;
  team: string;
}

export interface ApiKeyRecord {
  id: string;
  orgId: string;
  name: string;
  /** The bearer secret itself (the sandbox has no real secrets to protect). */
  token: string;
  scopes: string[];
  defaultPhoneNumberId: string | null;
  deletedAt: string | null;
}

export interface UserRecord {
  id: string;
  orgId: string;
  name: string;
  email: string;
  role: 'admin' | 'staff';
  /** Sandbox sign-in password on the OAuth approve page (documented in docs/sandbox.md). */
  password: string;
  defaultPhoneNumberId: string | null;
}

export interface PatientRecord {
  id: string;
  orgId: string;
  first_name: string;
  last_name: string;
  date_of_birth: string | null;
  phone: string | null;
  email: string | null;
  mrn: string | null;
  /** Clinic numbers (E.164) the patient replied STOP to. */
  optedOutFrom: string[];
  created_at: string;
  deleted_at: string | null;
}

export interface ConversationRecord {
  id: string;
  orgId: string;
  type: ConversationType;
  title: string;
  created_at: string;
  /** Staff users in the conversation (team chats; admins see patient conversations of their org). */
  participantIds: string[];
  /** user id → when they joined (participants endpoint). */
  joinedAt: Record<string, string>;
  patientId: string | null;
  phoneNumberId: string | null;
  channel: Channel | null;
  last_message_at: string | null;
  /** When staff last read the conversation; inbound messages after it are unread. */
  seen_at: string | null;
}

export interface MessageRecord {
  id: string;
  seq: number;
  orgId: string;
  conversationId: string;
  senderId: string;
  senderName: string;
  senderKind: SenderKind;
  patientId: string | null;
  channel: Channel;
  phoneNumberId: string | null;
  delivery: { status: DeliveryStatus; error: DeliveryError | null; updated_at: string } | null;
  campaignId: string | null;
  created_at: string;
  /** created_at as epoch ms, for range filters without re-parsing. */
  createdMs: number;
  edited_at: string | null;
  body: string;
  replyToId: string | null;
  sentVia: string | null;
}

export interface IdempotencyRecord {
  /** principal id + ':' + key */
  id: string;
  fingerprint: string;
  state: 'in_progress' | 'done';
  status: number;
  body: unknown;
  createdMs: number;
}

/** Typed access to the core tables. */
export function coreTables(store: SandboxStore) {
  return {
    orgs: store.table<OrgRecord>('orgs'),
    phoneNumbers: store.table<PhoneNumberRecord>('phone_numbers'),
    apiKeys: store.table<ApiKeyRecord>('api_keys'),
    users: store.table<UserRecord>('users'),
    patients: store.table<PatientRecord>('patients'),
    conversations: store.table<ConversationRecord>('conversations'),
    messages: store.table<MessageRecord>('messages'),
    idempotency: store.table<IdempotencyRecord>('idempotency'),
  };
}
export type CoreTables = ReturnType<typeof coreTables>;
