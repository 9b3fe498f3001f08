#!/usr/bin/env bash
# The conformance suite against the embedded reference (README: npm run conformance).
set -euo pipefail
npm run conformance
