#!/usr/bin/env bash
# Temporary: checks one part merged with the base: spectral lint, oapi-codegen server+client build.
# usage: openapi-parts/check.sh openapi-parts/NN-area.yaml
set -euo pipefail
cd "$(dirname "$0")/.."
part=$1; name=$(basename "$part" .yaml); dir=openapi-parts/tmp-$name
rm -rf "$dir"; mkdir -p "$dir/srv" "$dir/cli"
python3 openapi-parts/merge.py "$dir/openapi.yaml" "$part"
/tmp/spectral/node_modules/.bin/spectral lint --ruleset .spectral.yaml --fail-severity error "$dir/openapi.yaml" || { echo "spectral failed"; exit 1; }
go tool oapi-codegen -generate types,echo-server,strict-server,embedded-spec -package srv -o "$dir/srv/api.gen.go" "$dir/openapi.yaml"
go tool oapi-codegen -generate types,client -package cli -o "$dir/cli/client.gen.go" "$dir/openapi.yaml"
go build "./$dir/..."
go run ./openapi-parts/validate "$dir/openapi.yaml"
echo "OK $part"
