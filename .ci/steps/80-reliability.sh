#!/usr/bin/env bash
# Reliability (docs/reliability.md): the read-only smoke subset, then a short chaos proof —
# 2 full runs under 5% transient 503s and 0-200 ms latency, green, with no duplicate side effect.
# (The full proof is `npm run chaos` = 20 runs.)
set -euo pipefail
# the smoke run's reports go to a folder of this step's own, removed when the step ends (CI leaves nothing in the temp folder)
smoke="$(mktemp -d "${TMPDIR:-/tmp}/lc-ci-smoke-XXXXXX")"
trap 'rm -rf "$smoke"' EXIT
REPORTS_DIR="$smoke" npm run smoke
npm run chaos -- --runs 2 --chaos "503=0.05,latency=0-200"
