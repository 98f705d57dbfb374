#!/usr/bin/env bash
# Starts the machine's PostgreSQL cluster (creating one if the package made none) and a
# throw-away role and database for the store tests. Idempotent.
set -euo pipefail
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
pg_lsclusters --no-header | grep -q "^$version main" || pg_createcluster "$version" main
pg_ctlcluster "$version" main start 2>/dev/null || pg_ctlcluster "$version" main status >/dev/null
for _ in $(seq 1 30); do
  su postgres -c "pg_isready -q" && break
  sleep 1
done
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname = 'augur_test'\"" | grep -q 1 ||
  su postgres -c "psql -qc \"CREATE ROLE augur_test LOGIN PASSWORD 'augur_test'\""
# The serving role of docs/engine.md ("PostgreSQL roles"): it logs in, owns nothing, and is
# granted per table by the owner (augur_test) after each migration.
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname = 'augur_test_serving'\"" | grep -q 1 ||
  su postgres -c "psql -qc \"CREATE ROLE augur_test_serving LOGIN PASSWORD 'augur_test_serving'\""
su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname = 'augur_test'\"" | grep -q 1 ||
  su postgres -c "createdb -O augur_test augur_test"
echo "PostgreSQL $version ready on 127.0.0.1:5432 (database augur_test)"
