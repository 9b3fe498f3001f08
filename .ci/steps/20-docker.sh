#!/usr/bin/env bash
# Container runtime and browser for the container-target and report tests (docs/ci.md):
# installs docker.io and chromium when missing, starts dockerd in the background when no engine
# answers, and builds the reference image on a base image made from this machine's node
# (no registry is reachable here), and the suite image on the same base. Idempotent: each part is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
command -v dockerd >/dev/null 2>&1 || need+=(docker.io)
[[ -x /usr/bin/chromium ]] || need+=(chromium)
if (( ${#need[@]} > 0 )); then
  echo "installing ${need[*]}"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
  echo "starting dockerd"
  nohup dockerd >/tmp/dockerd.log 2>&1 &
  for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || { echo "dockerd did not start; see /tmp/dockerd.log" >&2; tail -20 /tmp/dockerd.log >&2; exit 1; }
fi
echo "docker engine $(docker info --format '{{.ServerVersion}}')"

bash scripts/build-base-image.sh
bash scripts/build-reference-image.sh 2> >(grep -v -e DEPRECATED -e BuildKit -e 'environment-variable' -e '^\s*$' >&2)
# the suite itself as an image (Dockerfile.suite): the npm package of this tree, installed, on the same base
bash scripts/build-suite-image.sh
