/**
 * `msgctl exports create|get|download`: conversation exports (api-spec §2.8,
 * §4.9; starting one is designed in docs/conversation-scoped.md). OAuth only.
 */
import type { Command } from 'commander';
import type { Export } from '../types/api.js';
import type { Column } from '../output/output.js';
import { choices, examples, type Act } from './kit.js';
import { uuidArg } from './uuid-arg.js';

const exportFields: Column<Export & { format?: string }>[] = [
  { header: 'id', value: (e) => e.id },
  { header: 'status', value: (e) => e.status },
  { header: 'conversation_id', value: (e) => e.conversation_id },
  { header: 'format', value: (e) => e.format },
  { header: 'created_at', value: (e) => e.created_at },
  { header: 'download_url', value: (e) => e.download_url },
  { header: 'expires_at', value: (e) => e.expires_at },
];

export function registerExports(program: Command, act: Act): void {
  const exportsCmd = program.command('exports').description('Export a conversation\'s messages to a file (OAuth)');
  examples(exportsCmd, [
    'ID=$(msgctl exports create "$CONV" --wait --json | jq -r .id)',
    'msgctl exports download "$ID" -o conversation.json',
  ]);

  const create = exportsCmd
    .command('create')
    .description('Start exporting a conversation (POST /conversations/{id}/exports); --wait until it is ready')
    .argument('<conversation-id>', 'conversation (UUID)', uuidArg('conversation id'))
    .option('--format <format>', 'file format', choices(['json', 'csv']), 'json')
    .option('--wait', 'wait until the export is ready, then print it with its download_url')
    .option('--idempotency-key <uuid>', 'make a retried start safe: the service replays the first result for 24 h')
    .action(
      act(async (ctx, conversationId: string, flags: { format: string; wait?: boolean; idempotencyKey?: string }) => {
        const client = await ctx.client();
        let current = await client.post<Export>(
          `/conversations/${conversationId}/exports`,
          { format: flags.format },
          ctx.idempotencyKey(flags.idempotencyKey),
          ctx.signal,
        );
        if (flags.wait) {
          const { waitForExport } = await import('../exports/follow.js');
          current = await waitForExport(client, current.id, ctx.signal, current);
        }
        await ctx.out.resource(current, exportFields);
        if (current.status === 'running') ctx.out.info(`Export ${current.id} started. Follow it: msgctl exports get ${current.id} --wait`);
      }),
    );
  examples(create, [
    'msgctl exports create "$CONV" --wait',
    'msgctl exports create "$CONV" --format csv --wait --json | jq -r .id',
  ]);

  const get = exportsCmd
    .command('get')
    .description('Show an export (GET /exports/{id}); once ready it has a download_url valid for 5 minutes')
    .argument('<export-id>', 'export (UUID)', uuidArg('export id'))
    .option('--wait', 'wait until the export is no longer running')
    .action(
      act(async (ctx, id: string, flags: { wait?: boolean }) => {
        const client = await ctx.client();
        let current: Export;
        if (flags.wait) {
          const { waitForExport } = await import('../exports/follow.js');
          current = await waitForExport(client, id, ctx.signal);
        } else {
          current = await client.get<Export>(`/exports/${id}`, undefined, ctx.signal);
        }
        await ctx.out.resource(current, exportFields);
      }),
    );
  examples(get, ['msgctl exports get "$ID"', 'msgctl exports get "$ID" --wait --json | jq -r .download_url']);

  const download = exportsCmd
    .command('download')
    .description('Download a ready export\'s file to stdout or -o FILE (fetches a fresh download_url)')
    .argument('<export-id>', 'export (UUID)', uuidArg('export id'))
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .option('--wait', 'wait for a running export to be ready first')
    .option('--keep-formulas', 'CSV: keep cells starting with = + - @ as they are (by default they get a leading \' so spreadsheets show them as text)')
    .action(
      act(async (ctx, id: string, flags: { output?: string; wait?: boolean; keepFormulas?: boolean }) => {
        const { downloadExport } = await import('../exports/download.js');
        await downloadExport(ctx, id, flags);
      }),
    );
  examples(download, ['msgctl exports download "$ID" -o conversation.json', 'msgctl exports download "$ID" | jq ".messages | length"']);
}
