#!/usr/bin/env bash
# The container image's build stage (Dockerfile: `RUN bash scripts/build-image.sh`), and what CI
# runs in a clean folder (.ci/run: a copy of the commit, then scripts/smoke.mjs on the result), so
# what the image does is tested without a container registry. Usage: scripts/build-image.sh [DIR]
#
# 1. every dependency, exactly as locked; native modules (better-sqlite3) compile here, which
#    needs python3, make and a C++ compiler (the build stage's image has them);
# 2. the console (with its brotli and gzip copies) and the server as JavaScript (npm run build);
# 3. the development dependencies dropped (TypeScript, Vite, esbuild, tsx, Vitest …).
set -euo pipefail
cd "${1:-.}"
started=$(date +%s)
npm ci --no-audit --no-fund --loglevel=error
npm run --silent build
npm prune --omit=dev --no-audit --no-fund --loglevel=error
test -f apps/server/dist/main.js && test -f apps/web/dist/index.html
echo "build-image: built in $(($(date +%s) - started)) s"
