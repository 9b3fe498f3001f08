#!/usr/bin/env bash
# The project's own tests (README: npm test).
set -euo pipefail
npm test
