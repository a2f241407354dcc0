#!/usr/bin/env bash
# Runs a command against a real, unlocked Secret Service (gnome-keyring) on a
# private session D-Bus, so keychain code can be tested headless: in CI, in a
# container, as root, with no X display.
#
#   scripts/with-keyring.sh CMD [ARGS...]
#
# The keyring lives in a temporary directory with a random password and is
# thrown away afterwards; the caller's real keyring (if any) is never touched.
# Installs nothing. On Debian/Ubuntu the needed packages are:
#   apt-get install -y dbus gnome-keyring
set -euo pipefail

me=with-keyring
fail() {
  echo "$me: $*" >&2
  exit 127
}

if [[ $# -eq 0 ]]; then
  echo "usage: scripts/with-keyring.sh CMD [ARGS...]" >&2
  exit 2
fi

for tool in dbus-run-session dbus-send gnome-keyring-daemon; do
  command -v "$tool" >/dev/null 2>&1 ||
    fail "'$tool' is not installed; install it with: apt-get install -y dbus gnome-keyring"
done

# First pass: start a private session bus and re-run this script inside it.
# The marker variable is removed again before CMD runs.
#
# The bus starts no service on demand (a config of our own, with no service folders): were
# our daemon to die, a client's call would otherwise make D-Bus start a stock
# gnome-keyring-daemon with no unlocked keyring, owning the Secret Service's name, and every
# later keychain test would fail with "no default keyring" (seen once on a fresh machine).
# Without it, a call in that moment fails at once and the loop below starts ours again.
if [[ "${MSGCTL_WITH_KEYRING_INSIDE:-}" != 1 ]]; then
  bus_config=$(mktemp "${TMPDIR:-/tmp}/msgctl-bus.XXXXXX")
  cat >"$bus_config" <<'XML'
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
XML
  # exec, so a signal to this script (a CI cancel, `timeout`) reaches the bus and the command;
  # the inner pass removes the config file, which the bus has read by then.
  exec env MSGCTL_WITH_KEYRING_INSIDE=1 MSGCTL_WITH_KEYRING_BUS_CONFIG="$bus_config" \
    dbus-run-session --config-file="$bus_config" -- bash "$0" "$@"
fi
unset MSGCTL_WITH_KEYRING_INSIDE
rm -f "${MSGCTL_WITH_KEYRING_BUS_CONFIG:-}"
unset MSGCTL_WITH_KEYRING_BUS_CONFIG

scratch=$(mktemp -d "${TMPDIR:-/tmp}/msgctl-keyring.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -m 700 "$scratch/data" "$scratch/run"

# A throwaway password (never exported to CMD): the keyring is deleted at exit,
# and reopened with it only if the daemon has to be started again (below).
password=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')

# The keyring files and control socket go to the scratch dir, not ~/.local
# and ~/.cache, so nothing outlives this run; CMD keeps the caller's XDG dirs.
# --unlock reads the password on stdin; with no existing keyring it creates
# the 'login' collection with that password, unlocked, as the default.
# --foreground keeps the daemon our own child, so we stop and reap it at the
# end instead of leaving it to an init that may not reap (containers).
#
# Kept running: gnome-keyring-daemon can abort (SIGTRAP, a GLib assertion) on a
# burst of sessions from many short-lived clients (upstream gnome-keyring issues
# 190, 194, 195; seen in CI with 5 parallel msgctl processes). Without a restart,
# every later keychain test would fail (the bus starts none on demand: above). So
# a loop starts it again, with the same password on the same files (what was
# stored is still there, unlocked); --replace in case the old one still holds the
# name while it dies. Each restart is counted in $MSGCTL_TEST_KEYRING_RESTARTS (a
# file: one line per restart).
restarts="$scratch/restarts"
: >"$restarts"
(
  for attempt in $(seq 20); do
    printf '%s' "$password" |
      XDG_DATA_HOME="$scratch/data" XDG_RUNTIME_DIR="$scratch/run" \
        gnome-keyring-daemon --foreground --replace --unlock --components=secrets >/dev/null 2>&1 || true
    [[ -e "$scratch/stop" ]] && exit 0
    echo "restart $attempt" >>"$restarts"
    sleep 0.1
  done
) &
supervisor=$!
trap 'touch "$scratch/stop"; pkill -P "$supervisor" 2>/dev/null; wait "$supervisor" 2>/dev/null; rm -rf "$scratch"' EXIT
export MSGCTL_TEST_KEYRING_RESTARTS="$restarts"

bus_call() {
  dbus-send --session --print-reply "$@" 2>/dev/null
}

# The daemon claims org.freedesktop.secrets a moment after it starts; wait
# for it (bounded) rather than let the first test race the start-up.
for _ in $(seq 50); do
  [[ -s "$restarts" ]] && fail "gnome-keyring-daemon exited during start-up"
  if bus_call --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets | grep -q 'boolean true'; then
    owned=1
    break
  fi
  sleep 0.1
done
[[ "${owned:-}" == 1 ]] || fail "gnome-keyring-daemon did not claim org.freedesktop.secrets on the session bus"

# Fail here, with a clear message, if the default collection is missing or
# locked: every keychain test would fail later with a vaguer error.
locked=$(bus_call --dest=org.freedesktop.secrets /org/freedesktop/secrets/aliases/default \
  org.freedesktop.DBus.Properties.Get string:org.freedesktop.Secret.Collection string:Locked) ||
  fail "the Secret Service has no default collection"
grep -q 'boolean false' <<<"$locked" || fail "the default keyring collection is still locked"

# Not exec: the EXIT trap must still remove the scratch dir afterwards.
status=0
"$@" || status=$?
# A restart is survivable but worth knowing about when a keychain test fails.
if [[ -s "$restarts" ]]; then echo "$me: gnome-keyring-daemon was started again $(wc -l <"$restarts") time(s) during the run" >&2; fi
exit "$status"
