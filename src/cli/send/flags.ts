/** The flags of `msgctl send`, single and batch (--csv): what the command and the batch engine both read. */
export interface SendFlags {
  to?: string;
  bodyFile?: string;
  channel?: 'secure' | 'sms';
  from?: string;
  region?: string;
  firstName?: string;
  lastName?: string;
  dob?: string;
  /** How numeric dates (--dob, a CSV's birth-date column) are read. */
  dayFirst?: boolean;
  monthFirst?: boolean;
  email?: string;
  mrn?: string;
  idempotencyKey?: string;
  dryRun?: boolean;
  // batch mode (msgctl send --csv)
  csv?: string;
  template?: string;
  templateFile?: string;
  toColumn?: string;
  concurrency?: number;
  journal?: string;
  strict?: boolean;
}
