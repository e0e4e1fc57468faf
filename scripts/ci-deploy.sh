#!/usr/bin/env bash
# CI's deployment checks (issue 26 items 6, 8, 9; .ci/run runs this before `npm test`):
#   1. scripts/build-image.sh — the container image's build stage — in a clean copy of the commit
#      (no node_modules, no dist): what the image does is tested without a container registry;
#   2. scripts/smoke.mjs on that build with this machine's Node.js (SQLite), then with Node.js 22
#      and 24 LTS from npm's node@22 / node@24 packages (PostgreSQL, when one answers on
#      127.0.0.1:5432: better-sqlite3's native module is built for this machine's Node.js only).
# About 5 minutes on an idle 2-core machine (estimated: the install, whose better-sqlite3 compile
# costs what the root install's does, then ~1 min of builds and ~30 s per smoke test); measured at
# 31 minutes on a machine shared by eight sessions (load average 20). Each step has a time limit,
# so a hang fails the run instead of holding it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
started=$(date +%s)

echo "== deploy: scripts/build-image.sh in a clean copy ($work)"
git -C "$root" archive HEAD | tar -x -C "$work"
timeout 1500 bash "$work/scripts/build-image.sh" "$work"

echo "== deploy: smoke test on $(node --version)"
timeout 300 node "$root/scripts/smoke.mjs" --root "$work"

pg=postgres://postgres@127.0.0.1:5432/postgres
if node -e "require('net').connect(5432,'127.0.0.1').on('connect',()=>process.exit(0)).on('error',()=>process.exit(1))"; then
  for major in 22 24; do
    echo "== deploy: smoke test on Node.js $major (npm's node@$major)"
    timeout 400 npx --yes -p "node@$major" -- node "$root/scripts/smoke.mjs" --root "$work" --postgres "$pg"
  done
else
  echo "== deploy: no PostgreSQL on 127.0.0.1:5432: the Node.js 22 and 24 smoke tests need it (SQLite's module is built for $(node --version))"
fi
echo "deploy checks: ok in $(($(date +%s) - started)) s"
