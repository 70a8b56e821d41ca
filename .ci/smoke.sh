#!/usr/bin/env bash
# The built shop started as an operator does (`npm start`'s entry) on the Node binary given as the
# argument (.ci/run: Node 24 from the registry, the other supported line; the suite runs on 22): its
# own embedded PostgreSQL in a temp DATA_DIR, a free port. Passes when
# /healthz answers 200, the home page answers 200 in French, and SIGTERM stops the server and its
# PostgreSQL. Bounded: two minutes at most (20 s on an idle machine).
set -euo pipefail
cd "$(dirname "$0")/.."

node_bin="${1:?usage: .ci/smoke.sh NODE_BINARY}"
version="$("$node_bin" --version)"
echo "smoke test on Node $version"
data_dir="$(mktemp -d)"
port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
url="http://127.0.0.1:$port"
log="$data_dir/server.log"
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  pkill -INT -f "postgres -D $data_dir/postgres" 2>/dev/null || true
  rm -rf "$data_dir"
}
trap cleanup EXIT
fail() {
  echo "smoke test on Node $version failed: $1"
  cat "$log"
  exit 1
}

env -u DATABASE_URL PORT="$port" HOST=127.0.0.1 BASE_URL="$url" DATA_DIR="$data_dir" LOG_LEVEL=warn \
  "$node_bin" server/start.js >"$log" 2>&1 &
pid=$!

# PostgreSQL's first start (initdb, migrations) takes most of the time: 10 s on an idle machine,
# 90 s at most on a busy one.
healthy=""
for _ in $(seq 1 180); do
  kill -0 "$pid" 2>/dev/null || fail "the server exited"
  if curl -sf -o /dev/null "$url/healthz"; then healthy=1; break; fi
  sleep 0.5
done
[ -n "$healthy" ] || fail "/healthz did not answer 200 within 90 s"

home="$(curl -s -w '\n%{http_code}' "$url/")"
[ "$(tail -n1 <<<"$home")" = 200 ] || fail "/ answered $(tail -n1 <<<"$home")"
grep -q 'lang="fr"' <<<"$home" || fail "/ is not the French home page"
grep -q 'Numérisation' <<<"$home" || fail "/ does not show the shop's French text"

kill -TERM "$pid"
for _ in $(seq 1 30); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.5
done
kill -0 "$pid" 2>/dev/null && fail "SIGTERM did not stop the server within 15 s"
wait "$pid" || fail "the server exited with code $? on SIGTERM"
pid=""
pgrep -f "postgres -D $data_dir/postgres" >/dev/null && fail "the embedded PostgreSQL outlived the server"
echo "smoke test on Node $version passed: healthy, home page in French, stopped cleanly"
