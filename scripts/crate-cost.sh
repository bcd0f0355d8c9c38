#!/bin/sh
# What one dependency adds to a first build: the CPU (user + sys) of `cargo build` (debug) of an
# empty library crate that depends on it alone, crates already downloaded (--offline).
# Usage: scripts/crate-cost.sh 'proptest = { version = "1.12", default-features = false, features = ["std"] }'
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cargo new --lib -q cost
cd cost
printf '%s\n' "$1" >> Cargo.toml
cargo generate-lockfile --offline -q
echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/time -f "%U s user, %S s sys, %e s wall" nice cargo build --offline -q 2>&1
echo "crates built: $(cargo tree --offline -q --prefix none | sort -u | wc -l)"
