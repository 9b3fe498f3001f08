#!/usr/bin/env bash
# Mutation harness (docs/mutation.md): the suite against the faithful reference, against every named defect
# (all must be caught) and under every benign variation (no false alarm). Writes reports/mutation.{json,md}
# and prints its wall time; two runs in parallel. To stay inside CI's time each defect run is limited to its
# area's suites (--scope area); the nightly runs `npm run mutation` (whole suite per defect).
set -euo pipefail
npm run mutation -- --parallel 2 --scope "${MUTATION_SCOPE:-area}"
