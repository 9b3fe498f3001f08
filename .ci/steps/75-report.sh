#!/usr/bin/env bash
# The HTML report of the conformance run (step 50) and the conformance matrix, opened in headless
# Chromium: they must load, show the run's numbers and log no console error (README: npm run report).
# Screenshots are kept in reports/. History: $ALLURE_HISTORY (default reports/history/allure-history.jsonl).
set -euo pipefail
cd "$(dirname "$0")/../.."
npm run report -- --check
