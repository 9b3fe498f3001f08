#!/usr/bin/env bash
# Builds the suite image (Dockerfile.suite) as $SUITE_IMAGE (default ledger-conformance/suite:local) from the npm
# package of this tree: `npm pack`, installed into an empty folder from the npm cache (run `npm ci` first), on the
# same base image as the reference image ($BASE_IMAGE, default local/node-base:<node major>, made by
# scripts/build-base-image.sh when absent). Skipped when the image already carries the package's shasum
# (FORCE=1 rebuilds).
set -euo pipefail
cd "$(dirname "$0")/.."
MAJOR="$(node -p 'process.versions.node.split(".")[0]')"
BASE_IMAGE="${BASE_IMAGE:-local/node-base:${MAJOR}}"
SUITE_IMAGE="${SUITE_IMAGE:-ledger-conformance/suite:local}"
LABEL=ledger-conformance.package-shasum
if ! docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  if [[ "$BASE_IMAGE" == local/* ]]; then BASE_IMAGE="$BASE_IMAGE" bash scripts/build-base-image.sh
  else docker pull "$BASE_IMAGE"; fi
fi
CTX="$(mktemp -d)"
trap 'rm -rf "$CTX"' EXIT
# npm pack normalises file times, so the same sources give the same shasum
SHASUM="$(npm pack --json --pack-destination "$CTX" 2>/dev/null | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)[0].shasum))')"
if [[ "${FORCE:-0}" != "1" ]] && [[ "$(docker image inspect "$SUITE_IMAGE" --format "{{ index .Config.Labels \"$LABEL\" }}" 2>/dev/null || true)" == "$SHASUM" ]]; then
  echo "${SUITE_IMAGE} is up to date (package ${SHASUM}); FORCE=1 rebuilds it"
  exit 0
fi
TARBALL="$(ls "$CTX"/*.tgz)"
mkdir "$CTX/app"
mv "$TARBALL" "$CTX/app/ledger-conformance.tgz"
# the consumer's package.json: the same overrides and install-script decisions as the project's (docs/ci.md)
node -e '
const p = require(process.argv[1])
const app = { name: "ledger-conformance-image", private: true, dependencies: { "ledger-conformance": "file:ledger-conformance.tgz" }, overrides: p.overrides, allowScripts: p.allowScripts }
require("fs").writeFileSync(process.argv[2], JSON.stringify(app, null, 2))' "$PWD/package.json" "$CTX/app/package.json"
(cd "$CTX/app" && npm install --prefer-offline --omit=dev --no-audit --no-fund --loglevel=error >/dev/null)
rm -f "$CTX/app/ledger-conformance.tgz"
# The local base holds only the libraries node itself links (scripts/build-base-image.sh); the native modules of
# the suite's tools (rolldown, lightningcss) link a few more (librt, ...): they go in beside it, from this machine.
mkdir -p "$CTX/rootfs"
if [[ "$BASE_IMAGE" == local/* ]]; then
  find "$CTX/app/node_modules" -name '*.node' -print0 | xargs -0 -r ldd 2>/dev/null | awk '/=>/ && $3 ~ /^\// { print $3 }' | sort -u | while read -r lib; do
    mkdir -p "$CTX/rootfs$(dirname "$lib")"
    cp -L "$lib" "$CTX/rootfs$lib"
  done
fi
cp Dockerfile.suite "$CTX/Dockerfile"
DOCKER_BUILDKIT=0 docker build -q --build-arg "BASE_IMAGE=${BASE_IMAGE}" --label "${LABEL}=${SHASUM}" -t "$SUITE_IMAGE" "$CTX" >/dev/null
echo "built ${SUITE_IMAGE} on ${BASE_IMAGE} (package ${SHASUM})"
