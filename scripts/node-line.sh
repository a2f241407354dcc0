#!/usr/bin/env bash
# Prints the bin folder of a Node.js release line (22, 24, …), installing it
# once from the npm registry's `node` package into a cache folder. CI uses it
# to run the suite on every supported line, whatever `node` the machine has.
set -euo pipefail
line=${1:?usage: scripts/node-line.sh MAJOR}
cache=${MSGCTL_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/msgctl-node}
dir="$cache/$line"
bin="$dir/node_modules/node/bin"
if [ ! -x "$bin/node" ]; then
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{"private":true}' > "$dir/package.json"
  npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error "node@$line" >&2
fi
"$bin/node" -e 'process.exit(0)' >&2
echo "$bin"
