#!/usr/bin/env bash
# Runs the cargo-fuzz targets on stable Rust (no sanitizer: `-s none`), each for RUNS executions.
#
#   scripts/fuzz.sh [TARGET...]          default: ingest command notation; RUNS=10000000
#   RUNS=100000 scripts/fuzz.sh notation
#
# Logs go to fuzz/logs/TARGET.log (not in git); a crash leaves its input in fuzz/artifacts/TARGET/.
# The targets run one after another at `nice` priority, each on one core. The corpus in
# fuzz/corpus/TARGET grows as libFuzzer finds new paths; only the seed-* files are committed.
# -timeout=10: an input that takes longer counts as a crash (the ingest target itself also fails any
# ingest over 3 s). -rss_limit_mb bounds memory; -max_len=8192 keeps inputs mail-sized (the 1 MiB and
# million-line mails are fixtures in tests/hostile.rs instead).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
RUNS=${RUNS:-10000000}
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(ingest command notation)
mkdir -p logs
export CARGO_TARGET_DIR=${FUZZ_TARGET_DIR:-$PWD/target}
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    start=$(date +%s)
    echo "== $t: $RUNS runs, started $(date -u +%FT%TZ)" | tee "logs/$t.log"
    status=0
    nice -n 10 cargo fuzz run -s none "$t" -- -runs="$RUNS" -timeout=10 -rss_limit_mb=2048 \
        -max_len=8192 -print_final_stats=1 >>"logs/$t.log" 2>&1 || status=$?
    end=$(date +%s)
    echo "== $t: exit $status after $((end - start)) s" | tee -a "logs/$t.log"
    grep -E "stat::number_of_executed_units|stat::peak_rss_mb|Done [0-9]+ runs" "logs/$t.log" | tail -3 || true
done
