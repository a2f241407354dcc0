#!/usr/bin/env bash
# Prints the bin folder of a Node.js release line (22, 24, …), installing it once
# from the npm registry's `node` package: scripts/node-line.mjs does the work (and
# runs on Windows too); this wrapper keeps `scripts/node-line.sh 24` working.
set -euo pipefail
exec node "$(dirname "$0")/node-line.mjs" "$@"
