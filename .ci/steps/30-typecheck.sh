#!/usr/bin/env bash
set -euo pipefail
npm run typecheck
# Biome's linter (biome.json); the formatter is not checked here until the tree has been formatted once
npm run lint
