#!/usr/bin/env bash
# Generate the TypeScript code for proto/risk/v1 (and google.rpc.ErrorInfo) into src/gen with
# protoc-gen-es; never edit src/gen by hand.
#
#   bash clients/node/scripts/gen-protos.sh           # regenerate
#   bash clients/node/scripts/gen-protos.sh --check   # exit 1 if src/gen is stale
#
# protoc is the one the Python toolchain already ships (grpc_tools, in the repository's .venv),
# so generating needs no buf or protoc binary and no network; the plugin is the pinned
# @bufbuild/protoc-gen-es from node_modules (scripts/setup runs `npm ci`).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
root="$(cd "$here/../.." && pwd)"
python="${PYTHON:-$root/.venv/bin/python}"
plugin="$here/node_modules/.bin/protoc-gen-es"
if [ ! -x "$plugin" ]; then
  echo "gen-protos: $plugin is missing: run bash scripts/setup" >&2
  exit 1
fi

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
(cd "$root/proto" && find risk -name '*.proto' | LC_ALL=C sort) > "$out/.risk"
mapfile -t risk_protos < "$out/.risk"
rm "$out/.risk"
"$python" -m grpc_tools.protoc \
  -I"$root/proto" -I"$here/proto" \
  --plugin=protoc-gen-es="$plugin" \
  --es_out="$out" --es_opt=target=ts,import_extension=js \
  "${risk_protos[@]}" google/rpc/error_info.proto

if [ "${1:-}" = --check ]; then
  if ! diff -r "$out" "$here/src/gen" >/dev/null; then
    echo "gen-protos: clients/node/src/gen is stale; run bash clients/node/scripts/gen-protos.sh" >&2
    diff -r "$out" "$here/src/gen" | head -20 >&2 || true
    exit 1
  fi
  exec bash "$here/scripts/bundle-web.sh" --check
fi
rm -rf "$here/src/gen"
mkdir -p "$here/src"
cp -r "$out" "$here/src/gen"
# the web app's protobuf bundle carries the same schemas
bash "$here/scripts/bundle-web.sh"
