#!/usr/bin/env bash
# Builds the Rust bridge with cargo into a target directory shared by every clone on the machine (the
# crates.io dependencies, s2n-tls-sys's C among them, take minutes and are the same for every clone),
# then copies the static library into this build directory. The copy is made under the same lock as
# the build, so a second clone building at the same time cannot replace the library mid-copy.
#
# Usage: cargo-build.sh CARGO TARGET_DIR OUT_LIB CC CXX MANIFEST
set -euo pipefail
cargo=$1 target_dir=$2 out=$3 cc=$4 cxx=$5 manifest=$6
mkdir -p "$target_dir" "$(dirname "$out")"
exec {lock}>"$target_dir/.dbxb-build.lock"
flock "$lock"
CARGO_TARGET_DIR="$target_dir" CC="$cc" CXX="$cxx" "$cargo" build --release --locked --quiet --manifest-path "$manifest"
cp -f "$target_dir/release/libdbxb_rust.a" "$out.tmp"
mv -f "$out.tmp" "$out"
