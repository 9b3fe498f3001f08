#!/usr/bin/env bash
# Builds the reference service image (Dockerfile) as $REFERENCE_IMAGE (default
# ledger-conformance/reference:local). The base image is $BASE_IMAGE; when it is absent locally and
# cannot be pulled, scripts/build-base-image.sh makes one from this machine's node.
# Needs node_modules (npm ci) in the build context: dependencies are copied, not downloaded.
# Skipped when the image already carries the hash of the current sources (FORCE=1 rebuilds).
set -euo pipefail
cd "$(dirname "$0")/.."
MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
BASE_IMAGE="${BASE_IMAGE:-local/node-base:${MAJOR}}"
REFERENCE_IMAGE="${REFERENCE_IMAGE:-ledger-conformance/reference:local}"
[[ -d node_modules ]] || { echo "node_modules missing: run npm ci first" >&2; exit 1; }
if ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  if [[ "$BASE_IMAGE" == local/* ]]; then BASE_IMAGE="$BASE_IMAGE" bash scripts/build-base-image.sh
  else docker pull "$BASE_IMAGE"; fi
fi
# The classic builder: works with any engine, needs no buildx plugin and no registry.
# The image records the hash of its sources: the container tests and runs can tell a stale image.
HASH="$(node --import tsx --input-type=module -e "const m = await import('./runner/run/container/source-hash.ts'); console.log(m.imageSourceHash(process.cwd()))")"
if [[ "${FORCE:-0}" != "1" ]] && [[ "$(docker image inspect "$REFERENCE_IMAGE" --format '{{ index .Config.Labels "ledger-conformance.source-hash" }}' 2>/dev/null || true)" == "$HASH" ]]; then
  echo "${REFERENCE_IMAGE} is up to date (sources ${HASH}); FORCE=1 rebuilds it"
  exit 0
fi
DOCKER_BUILDKIT=0 docker build -q --build-arg "BASE_IMAGE=${BASE_IMAGE}" --label "ledger-conformance.source-hash=${HASH}" -t "$REFERENCE_IMAGE" . >/dev/null
echo "built ${REFERENCE_IMAGE} on ${BASE_IMAGE} (sources ${HASH})"
