#!/usr/bin/env bash
set -euo pipefail
npm run typecheck
# Biome (biome.json): the formatter and the linter over the whole tree (npm test checks it too: test/scripts/format.test.ts)
npm run lint
