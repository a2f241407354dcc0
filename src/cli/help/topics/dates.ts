/** `msgctl help dates`: how dates and times are read (never guessed) and shown. */
import type { HelpTopic } from '../topic.js';

export const topic: HelpTopic = {
  name: 'dates',
  summary: 'dates and times: ambiguous numeric dates are never guessed; --day-first, --month-first, date_order',
  text: `Birth dates (send --dob, patients create and update --dob, a CSV's date of birth column in send --csv and imports create) are read in any common form: 1969-02-03, 19690203, Feb 3, 1969, 3-Feb-1969, and numeric ones such as 03/02/1969 or 3.2.69. A time after the date is ignored.

A numeric date whose two first numbers could each be the day or the month (03/02/1969: 3 February or 2 March) is never guessed. It is read in the stated order, or refused with exit 2 and nothing sent (a CSV is refused whole, naming the rows, since a file writes all its dates one way). The order is, first that applies:
  --day-first, --month-first   on the command (send, patients create, patients update, imports create)
  date_order                   the profile's setting: msgctl config set date_order day-first (or month-first)
  the region                   --region, else the profile's region: month first for the US and the regions that write dates its way, day first for most others; none for regions that write both ways (such as CA) or year first

A date only one order can read needs no order: 13/02/1969 is 13 February, 02/13/1969 is 13 February. With a stated order, a date that order cannot read is refused (13/02/1969 with --month-first). YYYY-MM-DD always works, whatever the order. A two-digit year is the latest such year not in the future (3/7/48 is 1948).

Times for reading messages (messages list and me messages --after, --before) take:
  2026-11-01T09:30:00Z   an RFC 3339 time, with its offset
  2026-11-01             midnight of that date in the organization's time zone
  today, yesterday       this machine's local date
  now, 30m, 24h, 7d, 2w  this instant, or that long ago
They take no numeric day/month forms, so no order applies there.

Times printed in tables are short local time (Nov 23 12:20, with the year when it is not this year); tab-separated and JSON output keep the service's RFC 3339 UTC times.

Examples:
  msgctl patients create --first-name Ada --last-name Lovelace --phone "+44 20 7946 0958" --dob 10/12/1815 --day-first
  msgctl imports create roster.csv --month-first --dry-run
  msgctl config set date_order day-first
`,
};
