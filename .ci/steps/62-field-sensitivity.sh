#!/usr/bin/env bash
# Field sensitivity, CI form (docs/mutation.md "Field sensitivity"): the clean run's map of every (operation, status,
# JSON path) of the reference's answers and notifications, then a fixed sample of 40 non-free fields (every k-th of
# the sorted map, not picked by hand), each perturbed alone against a reference of its own beside a faithful control.
# Reports in reports/mutation/field-sensitivity.{json,md}. The nightly runs the whole map: npm run mutation -- --fields.
#
# FIELDS_FAIL_ON_MISS=1: the step fails when one sampled field is not caught (--fail-on-miss). Off by default until the
# oracle judges every answer field (issue 39): on main before that work the sample catches about a third, so the step
# reports the figure without failing on it. The lead switches the default to 1 once the oracle's branch is merged and
# the sample is caught whole. The step fails in both modes when the clean run is not green, a batch's control fails, or
# a free field's perturbation fails a check (a false alarm).
#
# FIELDS_SENSITIVITY=1 runs this step (off by default in this repository's CI, decided at the merge of issue 39's
# branches: the sample cannot yet fail on a miss, and it costs about 10 minutes of the 35 CI has; the nightly runs
# `npm run mutation -- --fields`).
set -euo pipefail
if [[ "${FIELDS_SENSITIVITY:-0}" != "1" ]]; then
  echo "field sensitivity: skipped (FIELDS_SENSITIVITY=1 runs the sample of ${FIELDS_SAMPLE:-40} fields)"
  exit 0
fi
args=(--fields-sample "${FIELDS_SAMPLE:-40}" --parallel 2)
if [[ "${FIELDS_FAIL_ON_MISS:-0}" == "1" ]]; then
  args+=(--fail-on-miss)
fi
npm run mutation -- "${args[@]}"
