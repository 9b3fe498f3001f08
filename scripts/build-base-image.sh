#!/usr/bin/env bash
# Builds a minimal Node base image from this machine's own files, for machines where no
# container registry is reachable (images cannot be pulled). The root filesystem holds the
# node binary, the shared libraries it needs (found with ldd), /bin/sh and a few /etc basics;
# it is `docker import`ed as $BASE_IMAGE (default local/node-base:<node major>).
# Idempotent: does nothing when the image already exists (FORCE=1 rebuilds it).
set -euo pipefail

NODE_BIN="$(readlink -f "$(command -v node)")"
MAJOR="$("$NODE_BIN" -p 'process.versions.node.split(".")[0]')"
BASE_IMAGE="${BASE_IMAGE:-local/node-base:${MAJOR}}"

if [[ "${FORCE:-0}" != "1" ]] && docker image inspect "$BASE_IMAGE" >/dev/null 2>&1; then
  echo "base image ${BASE_IMAGE} already present"
  exit 0
fi

ROOT="$(mktemp -d)"
trap 'rm -rf "$ROOT"' EXIT

copy_with_libs() {
  local bin="$1"
  mkdir -p "$ROOT$(dirname "$bin")"
  cp -L "$bin" "$ROOT$bin"
  # every resolved library path, plus the dynamic loader (the line without "=>")
  ldd "$bin" | awk '/=>/ && $3 ~ /^\// { print $3 } !/=>/ && $1 ~ /^\// { print $1 }' | while read -r lib; do
    mkdir -p "$ROOT$(dirname "$lib")"
    cp -L "$lib" "$ROOT$lib"
  done
}

copy_with_libs "$NODE_BIN"
[[ "$NODE_BIN" == /usr/bin/node ]] || { mkdir -p "$ROOT/usr/bin"; ln -sf "$NODE_BIN" "$ROOT/usr/bin/node"; }
copy_with_libs "$(readlink -f /bin/sh)"
[[ -e "$ROOT/bin/sh" ]] || { mkdir -p "$ROOT/bin"; ln -sf "$(readlink -f /bin/sh)" "$ROOT/bin/sh"; }
# /lib64 loader path as the binaries expect it
if [[ -e /lib64/ld-linux-x86-64.so.2 && ! -e "$ROOT/lib64/ld-linux-x86-64.so.2" ]]; then
  mkdir -p "$ROOT/lib64"; cp -L /lib64/ld-linux-x86-64.so.2 "$ROOT/lib64/"
fi

mkdir -p "$ROOT/etc" "$ROOT/tmp" "$ROOT/app" "$ROOT/home/node"
chmod 1777 "$ROOT/tmp"
printf 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000:node:/home/node:/bin/sh\n' > "$ROOT/etc/passwd"
printf 'root:x:0:\nnode:x:1000:\n' > "$ROOT/etc/group"
printf 'hosts: files dns\n' > "$ROOT/etc/nsswitch.conf"
printf '127.0.0.1 localhost\n::1 localhost\n' > "$ROOT/etc/hosts"
[[ -d /etc/ssl/certs ]] && mkdir -p "$ROOT/etc/ssl" && cp -rL /etc/ssl/certs "$ROOT/etc/ssl/" 2>/dev/null || true
chown -R 1000:1000 "$ROOT/home/node"

tar -C "$ROOT" -c . | docker import \
  --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
  --change 'ENV NODE_ENV=production' \
  --change 'WORKDIR /app' \
  --change 'CMD ["node"]' \
  - "$BASE_IMAGE" >/dev/null
echo "built base image ${BASE_IMAGE} from ${NODE_BIN} (node $("$NODE_BIN" --version))"
