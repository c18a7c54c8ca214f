#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on loopback for the integration tests and prints its URL.
# Usage: scripts/postgres-test-server.sh start PORT DIR | stop-for DIR SECONDS | stop DIR
# stop-for stops the server as a restart does (fast: its sessions are cut), keeps it down SECONDS, and starts it again.
# Needs Debian's postgresql package; run as root (the server itself runs as the postgres user).
set -euo pipefail
cmd=${1:?start, stop-for or stop}
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
run() {
  su postgres -s /bin/sh -c "$bin/pg_ctl -D '$dir/data' -l '$dir/log' -w -o \"-p $(cat "$dir/port") -k '$dir' -c listen_addresses=127.0.0.1 -c fsync=off\" start >/dev/null"
}
if [ "$cmd" = start ]; then
  port=${2:?port}
  dir=${3:?data folder}
  mkdir -p "$dir"
  chown postgres "$dir"
  echo "$port" >"$dir/port"
  su postgres -s /bin/sh -c "$bin/initdb -D '$dir/data' -A trust -U postgres --no-sync >/dev/null"
  run
  echo "postgres://postgres@127.0.0.1:$port/postgres"
elif [ "$cmd" = stop-for ]; then
  dir=${2:?data folder}
  seconds=${3:?seconds}
  su postgres -s /bin/sh -c "$bin/pg_ctl -D '$dir/data' -m fast -w stop >/dev/null"
  sleep "$seconds"
  run
else
  dir=${2:?data folder}
  su postgres -s /bin/sh -c "$bin/pg_ctl -D '$dir/data' -m fast -w stop >/dev/null" || true
  rm -rf "$dir"
fi
