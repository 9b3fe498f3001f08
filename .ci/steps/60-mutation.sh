#!/usr/bin/env bash
# Mutation harness, CI form (docs/mutation.md "In CI"): the suite against the faithful reference and under every
# benign variation (each must stay green: no false alarm); two runs in parallel. The named defects are proven in the
# proof step (45), each caught by the checks its case names, a stricter form of "caught" than the harness's; a test
# there fails when a defect of the catalogue has no case. The nightly runs `npm run mutation` (every defect against
# the whole suite, with the score and the findings per defect). MUTATION_DEFECTS=1 runs the defects here too.
set -euo pipefail
if [[ "${MUTATION_DEFECTS:-0}" == "1" ]]; then
  npm run mutation -- --parallel 2 --scope area
else
  npm run mutation -- --parallel 2 --no-defects
fi
