#!/usr/bin/env bash
# Flake check, short version (docs/mutation.md): the whole suite 3 times against the faithful reference;
# fails on any check whose outcome changes between runs. The nightly runs it with --runs 30.
set -euo pipefail
npm run flake -- --runs "${FLAKE_RUNS:-3}" --parallel 2
