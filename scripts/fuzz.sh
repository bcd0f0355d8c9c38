#!/usr/bin/env bash
# Runs the cargo-fuzz targets on stable Rust (no sanitizer: `-s none`), each for RUNS executions.
#
#   scripts/fuzz.sh [TARGET...]          default: ingest command notation lmtp; RUNS=10000000
#   RUNS=100000 scripts/fuzz.sh notation
#   JOBS=2 TRACE_COMPARES=0 scripts/fuzz.sh ingest
#
# JOBS=N starts N fuzzing processes on the same corpus, each for RUNS/N executions (they pick up each
# other's new inputs through the corpus directory); the total is still RUNS. TRACE_COMPARES=0 builds
# without `-sanitizer-coverage-trace-compares`: about twice the executions per second, but libFuzzer no
# longer learns the values compared against, so new paths come slower (it builds in its own target dir).
#
# Logs go to fuzz/logs/TARGET[-JOB].log (not in git); a crash leaves its input in fuzz/artifacts/TARGET/.
# The processes run at `nice` priority, each on one core. The corpus in fuzz/corpus/TARGET grows as
# libFuzzer finds new paths; only the seed-* files are committed.
# -timeout=10: an input that takes longer counts as a crash (the ingest target itself also fails any
# ingest over 3 s). -rss_limit_mb bounds memory; -max_len=8192 keeps inputs mail-sized (the 1 MiB and
# million-line mails are fixtures in tests/it/hostile.rs instead).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
RUNS=${RUNS:-10000000}
JOBS=${JOBS:-1}
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(ingest command notation lmtp)
mkdir -p logs
export CARGO_TARGET_DIR=${FUZZ_TARGET_DIR:-$PWD/target}
build=(-s none)
if [ "${TRACE_COMPARES:-1}" = 0 ]; then
    build+=(--no-trace-compares)
    CARGO_TARGET_DIR=$CARGO_TARGET_DIR-no-trace-compares
fi
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    cargo fuzz build "${build[@]}" "$t"
    bin=$CARGO_TARGET_DIR/x86_64-unknown-linux-gnu/release/$t
    start=$(date +%s)
    pids=()
    for j in $(seq 1 "$JOBS"); do
        log=logs/$t.log
        [ "$JOBS" -gt 1 ] && log=logs/$t-$j.log
        echo "== $t job $j/$JOBS: $((RUNS / JOBS)) runs (${build[*]}), started $(date -u +%FT%TZ)" | tee "$log"
        nice -n 10 "$bin" -runs=$((RUNS / JOBS)) -timeout=10 -rss_limit_mb=2048 -max_len=8192 \
            -print_final_stats=1 -artifact_prefix="artifacts/$t/" "corpus/$t" >>"$log" 2>&1 &
        pids+=($!)
    done
    status=0
    for p in "${pids[@]}"; do wait "$p" || status=$?; done
    end=$(date +%s)
    echo "== $t: exit $status after $((end - start)) s"
    for log in logs/$t*.log; do
        echo "$log: $(grep -E "stat::number_of_executed_units" "$log" | tail -1)"
    done
done
