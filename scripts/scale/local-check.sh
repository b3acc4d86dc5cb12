#!/usr/bin/env bash
# The two-instance fault checks (scripts/scale/fault-check.ts) on this machine, without Docker:
# the compose `scale` profile's shape made of local processes.
#   - a new database on the PostgreSQL server PG_SERVER (default postgres://postgres@127.0.0.1:5432);
#   - a private redis-server (appendonly, as compose runs it) in a temporary folder;
#   - two instances of the built service (`npm start`'s dist/src/main.js, NODE_ENV=production,
#     the same secrets, TRUST_PROXY=127.0.0.1, one STORAGE_DIR);
#   - nginx running docker/nginx.conf itself, only its upstream addresses and listen port swapped
#     for local ones (needs nginx: `apt-get install -y nginx-light`).
# Faults as the checks' commands: `kill -9` of instance A; Redis shut down (AOF flushed, as
# `docker restart` does) and started again on the same port and folder.
# Everything it started is stopped, and the database dropped, on exit.
#   bash scripts/scale/local-check.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

PG_SERVER=${PG_SERVER:-postgres://postgres@127.0.0.1:5432}
command -v nginx >/dev/null || { echo "nginx is not installed (apt-get install -y nginx-light)"; exit 1; }
command -v redis-server >/dev/null || { echo "redis-server is not installed"; exit 1; }

TMP=$(mktemp -d /tmp/ll-scale-XXXXXX)
DB=ledgerline_scale_check_$$
DATABASE_URL="$PG_SERVER/$DB"
# Four ports free now (the kernel's choice, as the tests' freePort makes it).
read -r REDIS_PORT PORT_A PORT_B LB_PORT < <(node -e '
  const net = require("node:net");
  const servers = [0, 1, 2, 3].map(() => net.createServer().listen(0, "127.0.0.1"));
  Promise.all(servers.map((s) => new Promise((r) => s.on("listening", r)))).then(() => {
    console.log(servers.map((s) => s.address().port).join(" "));
    servers.forEach((s) => s.close());
  });')
PIDS=()

cleanup() {
  set +e
  # SIGTERM first (the instances close their queues on Redis, so it stays up meanwhile), then
  # SIGKILL whatever has not exited within 30 s.
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
  for _ in $(seq 1 60); do
    alive=0
    for pid in "${PIDS[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.5
  done
  for pid in "${PIDS[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      echo "local: process $pid did not exit within 30 s of SIGTERM: killed"
      kill -9 "$pid"
    fi
  done
  wait 2>/dev/null
  redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1
  psql "$PG_SERVER/postgres" -q -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" >/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT

node scripts/build-if-stale.js
psql "$PG_SERVER/postgres" -q -c "CREATE DATABASE $DB"

REDIS_START="redis-server --port $REDIS_PORT --bind 127.0.0.1 --dir $TMP --appendonly yes --save '' --daemonize yes --pidfile $TMP/redis.pid --logfile $TMP/redis.log"
sh -c "$REDIS_START"

export NODE_ENV=production
export DATABASE_URL
export REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
export SESSION_SECRET="scale-check-session-secret-of-32-chars-or-more"
export ENCRYPTION_KEY="$(printf 'ab%.0s' {1..32})"
export TRUST_PROXY=127.0.0.1
export STORAGE_DIR="$TMP/storage"
export API_PUBLIC_URL="http://127.0.0.1:$LB_PORT"
export LOG_LEVEL=${LOG_LEVEL:-warn}

start_instance() { # name port
  PORT=$2 node --max-semi-space-size=32 dist/src/main.js >"$TMP/$1.log" 2>&1 &
  PIDS+=($!)
  echo $! >"$TMP/$1.pid"
  for _ in $(seq 1 600); do
    if curl -fs "http://127.0.0.1:$2/health" >/dev/null 2>&1; then return 0; fi
    if ! kill -0 "$(cat "$TMP/$1.pid")" 2>/dev/null; then cat "$TMP/$1.log"; exit 1; fi
    sleep 0.2
  done
  echo "instance $1 did not become healthy"; cat "$TMP/$1.log"; exit 1
}
# One after the other: the first migrates the new database.
start_instance a "$PORT_A"
start_instance b "$PORT_B"

sed -e "s/server api-a:3000/server 127.0.0.1:$PORT_A/" \
    -e "s/server api-b:3000/server 127.0.0.1:$PORT_B/" \
    -e "s/listen 8080;/listen 127.0.0.1:$LB_PORT;/" docker/nginx.conf >"$TMP/nginx.conf"
nginx -p "$TMP" -c "$TMP/nginx.conf" -g "daemon off; pid $TMP/nginx.pid; error_log $TMP/nginx-error.log warn;" &
PIDS+=($!)

echo "local: instances on $PORT_A (a) and $PORT_B (b), redis on $REDIS_PORT, nginx on $LB_PORT, database $DB"
node -r ts-node/register/transpile-only scripts/scale/fault-check.ts \
  --url="http://127.0.0.1:$LB_PORT" \
  --psql="psql $DATABASE_URL -q -v ON_ERROR_STOP=1" \
  --kill="kill -9 $(cat "$TMP/a.pid")" \
  --restart-redis="redis-cli -p $REDIS_PORT shutdown >/dev/null; sleep 1; $REDIS_START"
