#!/usr/bin/env bash
# The project's own fast tests (README: npm test; at most 3 minutes).
set -euo pipefail
npm test
