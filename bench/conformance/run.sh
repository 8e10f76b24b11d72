#!/usr/bin/env bash
# Runs the official MCP conformance suite (server side) against `serve` for both
# requirement sets, sessionful and --stateless. The suite needs Node >= 22.19; the
# bridge itself runs on the Node on PATH (20). Usage:
#   npm run build && bench/conformance/run.sh [outdir]
# Env: CONF_NODE_PREFIX (default /tmp/node22) holds node@22 and the suite, installed with
#   npm install --prefix /tmp/node22 node@22.23.3 @modelcontextprotocol/conformance@0.2.0-alpha.12
set -u
cd "$(dirname "$0")/../.."
PREFIX="${CONF_NODE_PREFIX:-/tmp/node22}"
N22="$PREFIX/node_modules/node/bin/node"
SUITE="$PREFIX/node_modules/@modelcontextprotocol/conformance/dist/index.js"
OUT="${1:-/tmp/omb-conformance}"
mkdir -p "$OUT"
PORT="${CONF_PORT:-38611}"
for mode in sessionful stateless; do
  extra=""; [ "$mode" = stateless ] && extra="--stateless"
  node dist/cli/main.js serve examples/petstore/openapi.yaml --transport http --port "$PORT" $extra >"$OUT/serve-$mode.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT/mcp" && break; sleep 0.2; done
  for req in 2025-11-25 2026-07-28; do
    "$N22" "$SUITE" server --url "http://127.0.0.1:$PORT/mcp" --requirements "$req" \
      -o "$OUT/$mode-$req" >"$OUT/$mode-$req.txt" 2>&1
    echo "== $mode $req: $(grep -E 'Total|passed|failed' "$OUT/$mode-$req.txt" | tail -4 | tr '\n' ' ')"
  done
  kill "$pid"; wait "$pid" 2>/dev/null
done
