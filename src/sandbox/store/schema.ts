/**
 * The SQL shape of each named table. Every table is `id` (primary key) plus
 * `data`, the whole record as JSON; rowid keeps insertion order. Fields that
 * are looked up, filtered or sorted on are also generated columns (computed
 * from `data`, so they can never disagree with it) with SQL indexes on them,
 * which makes them readable in the `sqlite3` shell too. Tables not listed
 * here get only `id` and `data`.
 */
interface TableShape {
  /** column name → JSON path in `data` (or a full SQL expression when it starts with '='). */
  columns: Record<string, string>;
  /**
   * Text columns written with `data`, derived from the record by a function the domain gives
   * the table (Table.derive): what SQL cannot compute cheaply (messages.view: the message's
   * API view as JSON text, see domain/message-texts.ts). NULL in rows written before it existed.
   */
  derived?: string[];
  /** index name suffix → column list (optionally with WHERE ...). */
  indexes: Record<string, string>;
}

export const TABLE_SHAPES: Record<string, TableShape> = {
  patients: {
    columns: {
      org_id: '$.orgId',
      created_at: '$.created_at',
      deleted_at: '$.deleted_at',
      phone: '$.phone',
      mrn: '$.mrn',
      email_key: "=lower(json_extract(data, '$.email'))",
    },
    indexes: {
      roster: 'org_id, created_at, id WHERE deleted_at IS NULL',
      // Ending in (created_at, id), so "oldest first" comes from the index: without it the planner
      // walks the roster index in order and filters, which costs the whole roster per lookup.
      phone: 'org_id, phone, created_at, id WHERE deleted_at IS NULL',
      mrn: 'org_id, mrn, created_at, id WHERE deleted_at IS NULL',
      email: 'org_id, email_key, created_at, id WHERE deleted_at IS NULL',
    },
  },
  conversations: {
    columns: {
      org_id: '$.orgId',
      type: '$.type',
      patient_id: '$.patientId',
      phone_number_id: '$.phoneNumberId',
      channel: '$.channel',
    },
    indexes: { org: 'org_id, type', patient: 'patient_id, phone_number_id, channel' },
  },
  messages: {
    columns: {
      org_id: '$.orgId',
      conversation_id: '$.conversationId',
      created_ms: '$.createdMs',
      seq: '$.seq',
      reply_to_id: '$.replyToId',
      sender_kind: '$.senderKind',
      channel: '$.channel',
      delivery_status: '$.delivery.status',
    },
    indexes: {
      timeline: 'org_id, created_ms, id',
      conversation: 'conversation_id, created_ms, id',
      in_flight: 'delivery_status, channel',
      replies: 'reply_to_id WHERE reply_to_id IS NOT NULL',
    },
    derived: ['view'],
  },
  phone_numbers: { columns: { org_id: '$.orgId', number: '$.number' }, indexes: { org: 'org_id, number' } },
  api_keys: { columns: { org_id: '$.orgId', token: '$.token' }, indexes: { token: 'token' } },
  users: { columns: { org_id: '$.orgId', email: '$.email' }, indexes: { org: 'org_id' } },
  idempotency: { columns: { created_ms: '$.createdMs' }, indexes: { age: 'created_ms' } },
  campaign_recipients: { columns: { campaign_id: '$.campaignId', seq: '$.seq' }, indexes: { campaign: 'campaign_id, seq' } },
};

const NAME = /^[a-z][a-z0-9_]*$/;

/** CREATE statements for a table (idempotent: IF NOT EXISTS). */
export function createStatements(name: string): string[] {
  if (!NAME.test(name)) throw new Error(`bad table name ${name}`);
  const shape = TABLE_SHAPES[name];
  const columns = Object.entries(shape?.columns ?? {}).map(([column, path]) => {
    const expr = path.startsWith('=') ? path.slice(1) : `json_extract(data, '${path}')`;
    return `,\n  ${column} GENERATED ALWAYS AS (${expr}) VIRTUAL`;
  });
  const derived = (shape?.derived ?? []).map((column) => `,\n  ${column} TEXT`);
  const statements = [`CREATE TABLE IF NOT EXISTS ${name} (\n  id TEXT PRIMARY KEY NOT NULL,\n  data TEXT NOT NULL${derived.join('')}${columns.join('')}\n)`];
  for (const [suffix, spec] of Object.entries(shape?.indexes ?? {})) {
    const [cols, where] = spec.split(' WHERE ');
    statements.push(`CREATE INDEX IF NOT EXISTS ${name}_${suffix} ON ${name} (${cols})${where ? ` WHERE ${where}` : ''}`);
  }
  return statements;
}

/** Derived columns a table made by an older msgctl lacks: added (NULL in its rows) by the store at open. */
export function missingDerivedColumns(name: string, existing: string[]): string[] {
  return (TABLE_SHAPES[name]?.derived ?? []).filter((column) => !existing.includes(column));
}
