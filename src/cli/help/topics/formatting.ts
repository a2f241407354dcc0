/** `msgctl help formatting`: how output is shaped for people and for scripts. Plain text, at most 80 columns. */
import type { HelpTopic } from '../topic.js';

export const topic: HelpTopic = {
  name: 'formatting',
  summary: 'Output for people and scripts: --json FIELDS, --jq, --template, -o, tables, times, colour, pager',
  text: `Output for scripts

  --json             every field of each record, one JSON object per line
  --json id,name     only those fields, in that order (after the command
                     words). An unknown name is exit 2, listing the fields.
  --jq EXPR          jq itself, built in: EXPR runs on each record, as
                     "--json | jq EXPR" would. Strings print raw (jq -r).
                     A program jq cannot compile is exit 2 with jq's message,
                     and nothing is sent. A record jq fails on prints nothing
                     and makes the exit status 1.
  --template TEXT    each record through a Mustache template, then a newline:
                       {{first_name}}            a field
                       {{patient.name}}          a nested field
                       {{#phone}}...{{/phone}}   shown when the field is set
                       {{^unread}}...{{/unread}} shown when it is not
                       \\t \\n                     a tab, a newline
                     Nothing is HTML-escaped; objects print as JSON.
  -o, --output FILE  write what the command prints to FILE as UTF-8, put in
                     place only when the command succeeds (PowerShell: use
                     this, or [Console]::OutputEncoding = [Text.Encoding]::UTF8)

  --json, --jq and --template work on every list and get and on msgctl api.
  Piped without them: tab-separated rows, no header; times in RFC 3339 UTC.

Output for people (a terminal)

  Tables are aligned with spaces and fit the window: low-value columns go
  first and the id the next command takes goes last (--wide: every column).
  A list stopped at --limit says so on stderr. One record reads as
  "label: value" lines; empty fields are left out (--wide shows them).
  --plain (or MSGCTL_PLAIN=1): every record as label: value lines, no
  table alignment, colour, progress bar or pager (screen readers).

Times

  Shown in one zone, named in the header or after the time; recent ones
  relative ("5m ago"). This computer's zone, unless MSGCTL_TIME_ZONE or the
  profile's time_zone is "organization" or an IANA name (America/New_York).
  A date such as --after 2026-11-01 means midnight in the organization's
  time zone.

Colour and pager

  --color auto|always|never (--no-color). CLICOLOR_FORCE or FORCE_COLOR=1
  force colour; NO_COLOR, CLICOLOR=0, FORCE_COLOR=0 and TERM=dumb turn it
  off. Then the profile's color setting. Without colour (however it was
  turned off) or with TERM=dumb, progress and questions are plain lines.
  Long output goes through MSGCTL_PAGER, else PAGER, else the profile's
  pager, else "less -FRX". An empty value or --no-pager: no pager.

Examples

  msgctl patients list --all --json id,first_name,phone > patients.jsonl
  msgctl messages list --after 7d --jq 'select(.unread) | .body'
  msgctl patients list --template '{{id}}\\t{{first_name}} {{last_name}}'
  msgctl campaigns get "$ID" --wide
  msgctl patients list --all --json -o patients.jsonl
`,
};
