#!/usr/bin/env bash
# Runs the reference SDK 0.10's own e2e suite against this checkout's packaged server (./mvnw -B -DskipTests
# package first), on a copy in /tmp, with the SDK's original fixture (avatar: Blob? restored, this directory)
# and a policy that lets the e2e token's actor do what the suite does (docs/testing.md, "Reference SDK e2e").
# Usage: src/test/resources/sdk-e2e/run.sh [path to omnigraph-ts-0.10]   (PORT defaults to 18080)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"; MAIN="$(cd "$HERE/../../../.." && pwd)"
SDK="${1:-$MAIN/../shared/reference/omnigraph-ts-0.10}"; COPY="$(mktemp -d /tmp/og-sdk-e2e.XXXXXX)"
cp -r "$SDK"/. "$COPY" && cp "$HERE/schema.pg" "$COPY/fixtures/sdk-0.10/schema-noblob.pg" && cp "$HERE/data.jsonl" "$COPY/fixtures/sdk-0.10/data-noblob.jsonl" && cp "$HERE/queries.gq" "$COPY/fixtures/sdk-0.10/queries.gq"
sed -i "s|^PROPS\$|omnigraph.policy.file=$HERE/server-policy.yaml\nomnigraph.graphs.alpha.policy-file=$HERE/policy.yaml\nomnigraph.graphs.beta.policy-file=$HERE/policy.yaml\nPROPS|" "$COPY/scripts-start-server.sh"
echo "SDK copy: $COPY"; OG_MAIN="$MAIN" "$COPY/run-e2e.sh"
