#!/usr/bin/env bash
# The cycle bench on a copy of a seeded store (docs/benchmarks.md, #22 "Session 9"): copies
# <pristine> to <run dir>/run.sqlite (cycles add rows: the pristine file is never written), runs
# cycle.bench.ts on the copy without the cold baselines, then deletes the copy.
#   usage: run-seeded.sh <agents> <hours> <pristine .sqlite> <run dir> [VAR=value ...]
#   e.g.   run-seeded.sh 2000 100 s2000x100.pristine.sqlite /tmp/run BENCH_PROFILE=/tmp/run/prof
# Run from the repository root; extra VAR=value pairs are passed to the bench's environment.
set -euo pipefail
agents=$1 hours=$2 pristine=$3 dir=$4
shift 4
mkdir -p "$dir"
run=$dir/run.sqlite
rm -f "$run" "$run-wal" "$run-shm" "$run-journal"
trap 'rm -f "$run" "$run-wal" "$run-shm" "$run-journal"' EXIT
cp "$pristine" "$run"
echo "=== $agents x $hours from $(basename "$pristine"), commit $(git rev-parse --short HEAD), $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
env BENCH_BASELINES=none "$@" BENCH_AGENTS="$agents" BENCH_HOURS="$hours" BENCH_DB="$run" \
  npx tsx --expose-gc packages/engine/test-support/cycle/cycle.bench.ts
echo "=== done $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
