/** `msgctl help exit-codes`: what each exit code means and what a script does about it (product.md §2). */
import type { HelpTopic } from '../topic.js';

export const topic: HelpTopic = {
  name: 'exit-codes',
  summary: 'what each exit code means, and what a script should do about it',
  text: `Every command ends with one of these codes; scripts branch on them. Errors are on stderr (one problem JSON line with --json).

Codes:
  0     success
  1     other failure (campaigns watch saw the campaign stopped; stdout could not be written, e.g. a full disk)
  2     usage or local validation error: nothing was sent. Also a query the service cannot parse, a dry run that found invalid rows, a destructive command without a terminal and without --yes, a date either order could read, and "no" at a confirmation (it prints "Nothing changed.", not an error)
  3     authentication or authorization: 401, 403, or no credential (msgctl auth status says which credential was tried)
  4     not found (404)
  5     conflict (409): an idempotency key reused, or a campaign in the wrong state
  6     the service refused a field (422): see field_errors
  7     rate limited, and the retries ran out (429): run again later
  8     service or network unavailable after retries (5xx, connection): run again later; a write that may have gone through names the --idempotency-key that makes the re-run safe (done at most once)
  10    a batch finished but some items failed (send --csv, imports create, campaigns recipients add): read the per-row report
  130   interrupted (Ctrl-C); 143 terminated (SIGTERM, or SIGHUP when the terminal closes; on Windows, Ctrl-Break or closing the console window): run the same command again to resume

Declining a confirmation exits 2, as gh does for a cancelled prompt: nothing was changed, which is what 2 promises, and a \`&&\` chain stops there.

Examples:
  msgctl send --to "$PHONE" --idempotency-key "$KEY" "$BODY"; code=$?
  [ $code -eq 7 ] || [ $code -eq 8 ] && sleep 60 && msgctl send --to "$PHONE" --idempotency-key "$KEY" "$BODY"
  msgctl imports create roster.csv --wait || [ $? -eq 10 ]     # 10: some rows failed, listed on stderr
  msgctl send --to $Phone --idempotency-key $Key $Body; if ($LASTEXITCODE -in 7, 8) { Start-Sleep 60; msgctl send --to $Phone --idempotency-key $Key $Body }   # PowerShell
`,
};
