/**
 * Which zone a person reads times in: MSGCTL_TIME_ZONE, then the profile's
 * `time_zone`, then this machine's local zone. Each may be `local`,
 * `organization` (the zone the service reads `--after 2026-11-01` in, from
 * GET /organization's `time_zone`) or an IANA name such as America/New_York.
 */
import type { ScreenSettings } from './types.js';
import { isTimeZone, TimeView } from './time-view.js';

export async function chooseTimeView(screen: ScreenSettings, profileZone: string | undefined, warn: (message: string) => void): Promise<TimeView> {
  const from = screen.env.MSGCTL_TIME_ZONE ? 'MSGCTL_TIME_ZONE' : 'the profile\'s time_zone';
  const wanted = screen.env.MSGCTL_TIME_ZONE || profileZone || 'local';
  const now = screen.now;
  if (wanted === 'local') return new TimeView(undefined, now);
  if (wanted === 'organization') {
    const zone = await screen.organizationTimeZone?.().catch(() => undefined);
    if (zone && isTimeZone(zone)) return new TimeView(zone, now);
    warn(`${from} is "organization", but the service did not say the organization's time zone; showing times in UTC. Set an IANA zone name instead (e.g. America/New_York).`);
    return new TimeView('UTC', now);
  }
  if (isTimeZone(wanted)) return new TimeView(wanted, now);
  warn(`${from} "${wanted}" is not a time zone (use local, organization or an IANA name such as America/New_York); showing local time.`);
  return new TimeView(undefined, now);
}
