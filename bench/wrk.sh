#!/usr/bin/env bash
# Over-the-wire comparison of the benchmark's list route: plain Fiber, plain
# Fiber with the router's middleware, the router, and the router behind JWT,
# each served by bench/server on its own loopback port and loaded by wrk in
# turn. Prints requests/s and the ratio to plain Fiber measured in this run.
#
#   bench/wrk.sh [duration] [connections]     (defaults: 10s 32)
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-10s}"
connections="${2:-32}"
command -v wrk >/dev/null || { echo "wrk not found: apt-get install wrk" >&2; exit 1; }

work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
go -C bench build -o "$work/server" ./server
"$work/server" >"$work/token" &
server=$!
for _ in $(seq 50); do [[ -s "$work/token" ]] && break; sleep 0.1; done
token="$(head -n1 "$work/token")"
path='/api/users?page=1&limit=10&role=admin&q=ann&active=true'

rps() { # port [header]
  local args=(-t1 -c"$connections" -d"$duration" --latency)
  [[ $# -gt 1 ]] && args+=(-H "$2")
  wrk "${args[@]}" "http://127.0.0.1:$1$path" | awk '/Requests\/sec/ {print $2}'
}

wrk -t1 -c"$connections" -d2s "http://127.0.0.1:9001$path" >/dev/null # warm-up
base="$(rps 9001)"
printf '%-22s %12s %8s\n' implementation requests/s ratio
printf '%-22s %12.0f %8.2f\n' raw-fiber "$base" 1
for impl in "raw-fiber-middleware 9002" "router 9003" "router-jwt 9004"; do
  set -- $impl
  if [[ $1 == router-jwt ]]; then r="$(rps "$2" "Authorization: Bearer $token")"; else r="$(rps "$2")"; fi
  printf '%-22s %12.0f %8.2f\n' "$1" "$r" "$(echo "$r / $base" | bc -l)"
done
