/**
 * GET /patient-messages pages (group_by=message, no `q`) as JSON text,
 * spliced from the stored message texts (message-text.ts) and each
 * conversation's, number's and patient's part, made once per page. The same
 * positions, order, filter and cursors as message-pages.ts, which serves
 * every other case and every row without a stored text (written by an older
 * msgctl) or with changes in memory not yet written back.
 */
import type { SandboxContext } from '../context.js';
import { decodeCursor, encodeCursor, type PageRequest } from './paging.js';
import { isUnread, messageView, patientName } from './views.js';
import { after, narrow, scopeCondition, type MessageScope, type Position, type Window } from './message-index.js';
import { conversationScope, type MessageQuery } from './message-query.js';
import { readMessageText } from './message-text.js';
import { readCursor } from './message-pages.js';

const J = JSON.stringify;

interface StoredText {
  id: string;
  view: string | null;
}

/** The page as JSON text, or null when the query is not one this serves (message-pages.ts does). */
export function messagesPageJson(sb: SandboxContext, page: PageRequest, query: MessageQuery): string | null {
  if (query.groupBy !== 'message' || query.filtered) return null;
  const limit = page.limit;
  const cursor = page.after ? readCursor(decodeCursor(sb, page.after, query.list)) : null;
  const window = cursor ? narrow(query.window, after(cursor.at, query.order)) : query.window;
  const parts = pageParts(sb, query.orgId);
  const texts: string[] = [];
  let last: Position | null = null;
  let hasMore = false;
  const scope = { orgId: query.orgId, conversationIds: conversationScope(sb, query) };
  for (const row of walkTexts(sb, scope, window, query.order, limit + 1)) {
    const served = parts.text(row, query);
    if (!served) continue;
    if (texts.length === limit) {
      hasMore = true;
      break;
    }
    texts.push(served.json);
    last = served.at;
  }
  const nextCursor = hasMore && last
    ? encodeCursor(sb, { list: query.list, key: last.ms, id: last.id, extra: { at: last } })
    : null;
  return `{"data":[${texts.join(',')}],"pagination":${J({ next_cursor: nextCursor, has_more: hasMore })}}`;
}

/** Stored texts of a scope within a window, in growing chunks (as walkMessages reads records). */
function* walkTexts(sb: SandboxContext, scope: MessageScope, window: Window, order: 'asc' | 'desc', firstChunk: number): Generator<StoredText> {
  if (scope.conversationIds?.length === 0) return;
  const dir = order === 'asc' ? 'ASC' : 'DESC';
  let chunk = firstChunk;
  let rest = window;
  for (;;) {
    const { sql, params } = scopeCondition(scope, rest);
    const rows = sb.db.messages.textRows('t.view', sql, params, `created_ms ${dir}, id ${dir}`, chunk) as [string, string | null][];
    for (const [id, view] of rows) yield { id, view };
    if (rows.length < chunk) return;
    const [endId, endView] = rows[rows.length - 1]!;
    // Its time from the text's header (selecting created_ms would extract it from every row's record).
    const ms = (endView === null ? null : readMessageText(endView)?.createdMs) ?? sb.db.messages.get(endId)!.createdMs;
    rest = narrow(window, after({ ms, id: endId }, order));
    chunk = Math.min(chunk * 2, 2048);
  }
}

/**
 * The parts of one organization's pages, kept from page to page while the store's change
 * generation holds: a long `--all` walk touches the same few hundred conversations and
 * patients on every page, and remaking their parts was ~10% of the sandbox's work per page.
 * Any write (or any row handed out for a possible change) moves the generation and starts
 * afresh; so does growing past PARTS_KEPT entries, which bounds the memory.
 */
const partsKept = new WeakMap<SandboxContext, { generation: number; orgId: string; parts: PageParts }>();
const PARTS_KEPT = 20_000;

function pageParts(sb: SandboxContext, orgId: string): PageParts {
  const generation = sb.store.changeGeneration();
  const kept = partsKept.get(sb);
  if (kept && kept.generation === generation && kept.orgId === orgId && kept.parts.size() < PARTS_KEPT) return kept.parts;
  const parts = new PageParts(sb, orgId);
  partsKept.set(sb, { generation, orgId, parts });
  return parts;
}

/** Splices pages: the conversation, number and patient parts are made once (see pageParts). */
class PageParts {
  private readonly conversations = new Map<string, { title: string; seenAt: string | null } | null>();
  private readonly numbers = new Map<string, string>();
  private readonly patients = new Map<string, string>();

  constructor(
    private readonly sb: SandboxContext,
    private readonly orgId: string,
  ) {}

  size(): number {
    return this.conversations.size + this.numbers.size + this.patients.size;
  }

  /** The message's view as JSON and its position, or null when the list does not serve it (not a patient conversation). */
  text(row: StoredText, query: MessageQuery): { json: string; at: Position } | null {
    const parsed = row.view !== null && !this.sb.db.messages.inMemory(row.id) ? readMessageText(row.view) : null;
    if (!parsed) {
      const m = this.sb.db.messages.get(row.id);
      if (!m || !query.matches(m)) return null;
      return { json: J(messageView(this.sb, m)), at: { ms: m.createdMs, id: m.id } };
    }
    const conversation = this.conversation(parsed.conversationId);
    if (!conversation) return null;
    const unread = isUnread({ seen_at: conversation.seenAt }, { senderKind: parsed.senderKind, created_at: parsed.createdAt });
    const json = parsed.beforeTitle + conversation.title + parsed.beforeNumber + this.number(parsed.phoneNumberId) +
      parsed.beforeUnread + unread + parsed.beforePatient + this.patient(parsed.patientId);
    return { json, at: { ms: parsed.createdMs, id: row.id } };
  }

  /** A patient conversation of the query's organization (the list's filter), or null. */
  private conversation(id: string) {
    let known = this.conversations.get(id);
    if (known === undefined) {
      const c = this.sb.db.conversations.get(id);
      known = c && c.orgId === this.orgId && c.type === 'patient' ? { title: J(c.title ?? ''), seenAt: c.seen_at } : null;
      this.conversations.set(id, known);
    }
    return known;
  }

  private number(id: string | null): string {
    if (!id) return 'null';
    let known = this.numbers.get(id);
    if (known === undefined) {
      const n = this.sb.db.phoneNumbers.get(id);
      this.numbers.set(id, (known = n ? J({ number: n.number, team: n.team }) : 'null'));
    }
    return known;
  }

  /** `,"patient":{…}}` or `}`: what closes the view. */
  private patient(id: string | null): string {
    if (!id) return '}';
    let known = this.patients.get(id);
    if (known === undefined) {
      const p = this.sb.db.patients.get(id);
      this.patients.set(id, (known = p ? `,"patient":${J({ id: p.id, name: patientName(p) })}}` : '}'));
    }
    return known;
  }
}
