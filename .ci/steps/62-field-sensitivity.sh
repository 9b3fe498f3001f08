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
set -euo pipefail
args=(--fields-sample "${FIELDS_SAMPLE:-40}" --parallel 2)
if [[ "${FIELDS_FAIL_ON_MISS:-0}" == "1" ]]; then
  args+=(--fail-on-miss)
fi
npm run mutation -- "${args[@]}"
