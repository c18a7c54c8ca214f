#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on loopback for the integration tests and prints its URL.
# Usage: scripts/postgres-test-server.sh start PORT DIR | stop DIR
# Needs Debian's postgresql package; run as root (the server itself runs as the postgres user).
set -euo pipefail
cmd=${1:?start or stop}
if [ "$cmd" = start ]; then
  port=${2:?port}
  dir=${3:?data folder}
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  mkdir -p "$dir"
  chown postgres "$dir"
  su postgres -s /bin/sh -c "$bin/initdb -D '$dir/data' -A trust -U postgres --no-sync >/dev/null"
  su postgres -s /bin/sh -c "$bin/pg_ctl -D '$dir/data' -l '$dir/log' -w -o \"-p $port -k '$dir' -c listen_addresses=127.0.0.1 -c fsync=off\" start >/dev/null"
  echo "postgres://postgres@127.0.0.1:$port/postgres"
else
  dir=${2:?data folder}
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  su postgres -s /bin/sh -c "$bin/pg_ctl -D '$dir/data' -m fast -w stop >/dev/null" || true
  rm -rf "$dir"
fi
