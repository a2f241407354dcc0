/** `msgctl help environment`: every variable msgctl reads (test/unit/help-topics.test.ts checks the MSGCTL_* ones against the source). */
import type { HelpTopic } from '../topic.js';

export const topic: HelpTopic = {
  name: 'environment',
  summary: 'environment variables: credentials for cron, profiles, proxies, colour, files',
  text: `Environment variables msgctl reads. A flag on the command line wins over a variable, and a variable wins over the profile's setting in config.json (msgctl config).

Credentials (the way for cron, CI and scripts; never put a secret on the command line):
  MSGCTL_API_KEY                 an organization API key; wins over any credential the profile stores, so while it is set \`msgctl auth set-key\` and \`msgctl login\` change nothing that is sent
  MSGCTL_TOKEN                   an OAuth access token, used as is (never refreshed); used when MSGCTL_API_KEY is not set
  MSGCTL_CLIENT_ID               the OAuth app's client id for \`msgctl login\` (--client-id wins; else the profile's client_id)
  MSGCTL_CLIENT_SECRET           the OAuth app's client secret for \`msgctl login\` (else the stored one, or a hidden prompt)
  MSGCTL_WEBHOOK_SECRET          the signing secret \`msgctl events listen\` verifies deliveries with

Where commands go:
  MSGCTL_PROFILE                 the profile to use (--profile wins; else config.json's default_profile, else "default")
  MSGCTL_BASE_URL                the API root including /v1 (--base-url wins; else the profile's base_url)
  MSGCTL_AUTH_URL                the OAuth server, when it is not the API's origin (else the profile's auth_url)

Waiting:
  MSGCTL_LOGIN_TIMEOUT_SECONDS   how long \`msgctl login\` waits for the browser (default 300)
  MSGCTL_KEYCHAIN_TIMEOUT_MS     how long a keychain call may take before msgctl gives up on it (default 60000 at a terminal, 3000 otherwise, so a locked keychain never hangs a cron job)
  MSGCTL_KEYCHAIN_SERVICE        the keychain service name entries are stored under (default msgctl; the tests use msgctl-test)

Output:
  MSGCTL_PAGER                   the pager for long terminal output (wins over PAGER and the profile's pager; empty for none)
  PAGER                          the pager when MSGCTL_PAGER is not set
  NO_COLOR                       any value: no colour (as --no-color)
  CLICOLOR=0, TERM=dumb          no colour and no cursor control
  CLICOLOR_FORCE, FORCE_COLOR    colour even when not on a terminal
  MSGCTL_PLAIN=1                 on a terminal, records as "label: value" lines with no tables, bars, colour or pager (as --plain; for screen readers)
  MSGCTL_TIME_ZONE               the zone times are shown in: local (default), organization, or an IANA name such as America/Chicago (wins over the profile's time_zone)

Network:
  HTTPS_PROXY, HTTP_PROXY        proxy for https:// and http:// base URLs (also lower case); loopback is never proxied
  NO_PROXY                       hosts that bypass the proxy (comma-separated; a leading dot or * as usual)
  NODE_EXTRA_CA_CERTS            a PEM file of extra certificate authorities (a clinic's TLS-inspecting proxy)

Files (docs/platforms.md has the table per OS):
  XDG_CONFIG_HOME                config.json and, after --insecure-storage, credentials.json go in $XDG_CONFIG_HOME/msgctl (default ~/.config/msgctl; on Windows %APPDATA%\\msgctl, and %LOCALAPPDATA%\\msgctl for credentials.json, which must not roam)
  XDG_STATE_HOME                 batch journals and recent import ids go in $XDG_STATE_HOME/msgctl (default ~/.local/state/msgctl; %LOCALAPPDATA%\\msgctl on Windows)
  XDG_CACHE_HOME                 compiled code kept for start-up, in $XDG_CACHE_HOME/msgctl (safe to delete)
  APPDATA, LOCALAPPDATA          the Windows folders above
  NODE_DISABLE_COMPILE_CACHE=1   keep no compiled code between runs
  NODE_COMPILE_CACHE             a folder of your choosing for Node's compile cache
  MSGCTL_DEBUG_CACHE=1           say on stderr why compiled code was not kept or not used (a cache folder others could write to)

For contributors (npm test, npm run demo, CI):
  MSGCTL_NODE_CACHE              where scripts/node-line.mjs keeps the Node it fetches from the npm registry when the machine's is too old
  MSGCTL_TEST_KEYCHAIN=1         run the tests that need a real OS keychain (scripts/with-keyring.sh provides one)

Examples:
  MSGCTL_API_KEY="$(cat ~/.msgctl-key)" msgctl send --csv tomorrow.csv --template-file reminder.txt
  $env:MSGCTL_API_KEY = Get-Content ~\\.msgctl-key; msgctl send --csv tomorrow.csv --template-file reminder.txt   # PowerShell
  MSGCTL_PROFILE=sandbox msgctl patients list
  HTTPS_PROXY=http://proxy.clinic.example:3128 msgctl org
`,
};
