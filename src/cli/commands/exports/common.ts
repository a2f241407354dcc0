/** What the `msgctl exports` verbs share: the fields an export prints (api-spec §2.8, §4.9). OAuth only. */
import type { Export } from '../../../contract/api.js';
import type { Column } from '../../output/output.js';

export const exportFields: Column<Export & { format?: string }>[] = [
  { header: 'id', value: (e) => e.id },
  { header: 'status', value: (e) => e.status },
  { header: 'conversation_id', value: (e) => e.conversation_id },
  { header: 'format', value: (e) => e.format },
  { header: 'created_at', value: (e) => e.created_at, time: true, label: 'created' },
  { header: 'download_url', value: (e) => e.download_url, label: 'download URL' },
  { header: 'expires_at', value: (e) => e.expires_at, time: true, label: 'expires' },
];
