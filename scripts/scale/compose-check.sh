#!/usr/bin/env bash
# The two-instance fault checks (scripts/scale/fault-check.ts) against the compose `scale` profile:
# brings it up (api-a and api-b behind nginx on one PostgreSQL and one Redis), runs the checks
# through the balancer with the faults made by `docker` (kill -s KILL of api-a during a burst of
# writes; `docker restart` of redis), then takes it all down with its volumes (`down -v`).
# Needs Docker with the compose plugin, and Node with the repository's dev dependencies (npm ci).
#   bash scripts/scale/compose-check.sh
# Settings: SCALE_PORT (8080), SCALE_NET (172.31.238, the profile's /24), SESSION_SECRET and
# ENCRYPTION_KEY (throwaway ones by default), COMPOSE_PROJECT_NAME (ledgerline-scale-check).
# KEEP=1 leaves the stack running afterwards.
# Without Docker, scripts/scale/local-check.sh runs the same checks on local processes.
set -euo pipefail
cd "$(dirname "$0")/../.."

export COMPOSE_PROJECT_NAME=${COMPOSE_PROJECT_NAME:-ledgerline-scale-check}
export SESSION_SECRET=${SESSION_SECRET:-compose-check-session-secret-of-32-chars}
export ENCRYPTION_KEY=${ENCRYPTION_KEY:-$(printf 'cd%.0s' {1..32})}
export SCALE_PORT=${SCALE_PORT:-8080}
COMPOSE=(docker compose -f docker/compose.yml --profile scale)

cleanup() {
  if [ "${KEEP:-}" = 1 ]; then return; fi
  "${COMPOSE[@]}" down -v --remove-orphans
}
trap cleanup EXIT

# Only the balancer and what it depends on (naming lb keeps the single-instance `api` down).
"${COMPOSE[@]}" up --build --detach --wait lb

container() { "${COMPOSE[@]}" ps -q "$1"; }

node -r ts-node/register/transpile-only scripts/scale/fault-check.ts \
  --url="http://127.0.0.1:$SCALE_PORT" \
  --psql="${COMPOSE[*]} exec -T postgres psql -U ledgerline -d ledgerline -q -v ON_ERROR_STOP=1" \
  --kill="docker kill -s KILL $(container api-a)" \
  --restart-redis="docker restart $(container redis)"
