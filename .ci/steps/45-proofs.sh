#!/usr/bin/env bash
# The slow proofs (README: npm run test:proofs; files named *.proof.test.ts): every named defect caught by its
# check, full and multi-target runs, redaction canaries, chaos side effects, the container target (docker is
# ready from step 20; CI=true turns a skip into a failure), the HTML report in headless Chromium, the package.
set -euo pipefail
cd "$(dirname "$0")/../.."
export TESTCONTAINERS_RYUK_DISABLED=true
cleanup() {
  ids="$(docker ps -aq --filter label=ledger-conformance.run-id 2>/dev/null || true)"
  [[ -z "$ids" ]] || docker rm -f $ids >/dev/null
}
trap cleanup EXIT
npm run test:proofs
