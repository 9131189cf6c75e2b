#!/usr/bin/env bash
# Makes a PostgreSQL the data tests can use on 127.0.0.1:$PORT (default 5432): user postgres without a
# password, a database `test`. Used by .ci/run on a machine that has none running: it installs
# Debian's `postgresql` when it is missing, creates and starts a cluster, lets local TCP connections
# in without a password (a throwaway CI machine; never run this on a server with data), and creates
# the database. Exits non-zero when it cannot; .ci/run then says loudly that PostgreSQL is skipped.
set -euo pipefail
PORT="${1:-5432}"
CLUSTER="${2:-main}"

if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  echo "ci-postgres: installing PostgreSQL from Debian"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends postgresql >/dev/null
fi
VERSION="$(ls /etc/postgresql | sort -V | tail -n1)"
if [ ! -d "/etc/postgresql/$VERSION/$CLUSTER" ]; then
  pg_createcluster --port "$PORT" "$VERSION" "$CLUSTER" >/dev/null
fi
pg_ctlcluster --skip-systemctl-redirect "$VERSION" "$CLUSTER" start 2>/dev/null || true
for _ in $(seq 1 40); do pg_isready -q -h 127.0.0.1 -p "$PORT" && break; sleep 0.5; done
pg_isready -q -h 127.0.0.1 -p "$PORT"

# The tests connect over TCP as postgres with no password (TEST_DATABASE_URL in .ci/run).
if ! PGCONNECT_TIMEOUT=5 psql -w -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -Atc 'select 1' >/dev/null 2>&1; then
  HBA="/etc/postgresql/$VERSION/$CLUSTER/pg_hba.conf"
  { printf 'host all postgres 127.0.0.1/32 trust\nhost all postgres ::1/128 trust\n'; cat "$HBA"; } >"$HBA.new"
  mv "$HBA.new" "$HBA"
  chown postgres:postgres "$HBA"
  pg_ctlcluster --skip-systemctl-redirect "$VERSION" "$CLUSTER" reload
  sleep 1
fi
if [ "$(psql -w -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -Atc "select 1 from pg_database where datname = 'test'")" != "1" ]; then
  psql -w -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -qc 'create database test'
fi
echo "ci-postgres: PostgreSQL $VERSION ready on 127.0.0.1:$PORT (database test)"
