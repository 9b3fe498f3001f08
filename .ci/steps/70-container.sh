#!/usr/bin/env bash
# The whole conformance suite against the reference service started as a container
# (README: npm run conformance:container). Ryuk is off (no registry to pull it from): the
# suite's teardown and signal guard remove the container; leftovers of a killed run are removed
# here by label.
set -euo pipefail
cd "$(dirname "$0")/../.."
export TESTCONTAINERS_RYUK_DISABLED=true
# testcontainers leaves its lock file (testcontainers-node-<uid>.lock) in the temp folder: give it a private one
TMPDIR="$(mktemp -d)"
export TMPDIR
cleanup() {
  ids="$(docker ps -aq --filter label=ledger-conformance.run-id 2>/dev/null || true)"
  [[ -z "$ids" ]] || docker rm -f $ids >/dev/null
  rm -rf "$TMPDIR"
}
trap cleanup EXIT
# (the container-target tests, test/container/*.proof.test.ts, ran in step 45 with the other proofs)
# the whole suite against the reference container
REPORTS_DIR="${REPORTS_DIR:-reports}/container" npm run conformance:container
