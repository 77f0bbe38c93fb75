#!/usr/bin/env bash
# Second command of the README: builds everything and passes all tests. CI runs exactly this.
# Stages (budget on a 2-core machine, printed as they go):
#   1. Release build of library, converter, tools, tests            (~15 min)
#   2. ctest: op, API, converter, tool, CV, conformance, real models (~10 min)
#   3. install to a temporary prefix; outside find_package client    (~1 min)
#   4. ASan+UBSan build of the core with op + API tests              (~12 min)
#   5. aarch64 cross build of the core with op + API tests, qemu     (~12 min)
#   6. libFuzzer (clang, ASan+UBSan): each fuzz target for MNN_FUZZ_SECONDS (60) (~6 min)
# Set MNN_TEST_STAGES="1 2 3" to run a subset locally.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
JOBS=${JOBS:-$(nproc)}
STAGES=${MNN_TEST_STAGES:-"1 2 3 4 5 6"}
./scripts/install-deps.sh
START=$(date +%s)
stage_start() { STAGE_T=$(date +%s); echo; echo "=== stage $1: $2 (budget $3 min) ==="; }
stage_end() { echo "=== stage $1 done in $(( $(date +%s) - STAGE_T )) s (total $(( $(date +%s) - START )) s) ==="; }
want() { [[ " $STAGES " == *" $1 "* ]]; }
FAILED=0

if want 1 || want 2 || want 3; then
  stage_start 1 "Release build" 15
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release > build.configure.log 2>&1 || { cat build.configure.log; exit 1; }
  cmake --build build -j"$JOBS"
  stage_end 1
fi

if want 2; then
  stage_start 2 "tests (ctest)" 10
  (cd build && ctest -j"$JOBS" --output-on-failure --timeout 1200) || FAILED=1
  stage_end 2
fi

if want 3; then
  stage_start 3 "install + outside client" 1
  PREFIX=$(mktemp -d)
  cmake --install build --prefix "$PREFIX" > /dev/null
  cmake -S test/install/client -B "$PREFIX/client-build" -G Ninja -DCMAKE_PREFIX_PATH="$PREFIX" > /dev/null
  cmake --build "$PREFIX/client-build"
  "$PREFIX/client-build/mnn_client" "$ROOT/examples/models/small_cnn.mnn" || FAILED=1
  for tool in MNNConvert MNNInfo MNNRun MNNBenchmark; do
    if [ -x "$PREFIX/bin/$tool" ]; then
      "$PREFIX/bin/$tool" --help > /dev/null || { echo "$tool --help failed from the prefix"; FAILED=1; }
    fi
  done
  if [ -x "$PREFIX/bin/MNNInfo" ]; then "$PREFIX/bin/MNNInfo" "$ROOT/examples/models/small_cnn.mnn" | head -3 || FAILED=1; fi
  rm -rf "$PREFIX"
  stage_end 3
fi

if want 4; then
  stage_start 4 "ASan+UBSan: core, op and API tests" 12
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMNN_SANITIZE="address;undefined" \
    -DMNN_BUILD_CONVERTER=OFF -DMNN_BUILD_TOOLS=OFF -DMNN_BUILD_BENCHMARK=OFF -DMNN_BUILD_SHARED=OFF > /dev/null
  cmake --build build-asan -j"$JOBS" --target MNNOpTests MNNApiTests
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest -j"$JOBS" -L "^(ops|api)$" --output-on-failure) || FAILED=1
  stage_end 4
fi

if want 5; then
  stage_start 5 "aarch64 cross build, op and API tests under qemu-aarch64-static -cpu max" 12
  cmake -S . -B build-aarch64 -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/aarch64-linux-gnu.cmake" \
    -DMNN_BUILD_CONVERTER=OFF -DMNN_BUILD_TOOLS=OFF -DMNN_BUILD_BENCHMARK=OFF -DMNN_BUILD_SHARED=OFF > /dev/null
  cmake --build build-aarch64 -j"$JOBS" --target MNNOpTests MNNApiTests
  (cd build-aarch64 && ctest -j"$JOBS" -L "^(ops|api)$" --output-on-failure) || FAILED=1
  stage_end 5
fi

if want 6; then
  stage_start 6 "libFuzzer targets, ${MNN_FUZZ_SECONDS:-60} s each" 6
  CC=clang CXX=clang++ cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMNN_FUZZ=ON \
    -DMNN_BUILD_CONVERTER=OFF -DMNN_BUILD_TOOLS=OFF -DMNN_BUILD_BENCHMARK=OFF -DMNN_BUILD_SHARED=OFF > /dev/null
  cmake --build build-fuzz -j"$JOBS" --target mnn_fuzz_seeds $(cd build-fuzz && ninja -t targets all 2>/dev/null | grep -o '^mnn_fuzz_[a-z_]*' | sort -u | grep -v seeds | tr '\n' ' ')
  CORPUS=$(mktemp -d)
  ./build-fuzz/test/fuzz/mnn_fuzz_seeds "$CORPUS"
  cp examples/models/*.mnn "$CORPUS"/ 2>/dev/null || true
  for fz in build-fuzz/test/fuzz/mnn_fuzz_*; do
    case "$fz" in *seeds) continue ;; esac
    echo "fuzzing $(basename "$fz")"
    mkdir -p "$CORPUS/$(basename "$fz")"
    ASAN_OPTIONS=detect_leaks=1 "$fz" -max_total_time="${MNN_FUZZ_SECONDS:-60}" -rss_limit_mb=2048 -timeout=10 \
      -print_final_stats=1 "$CORPUS/$(basename "$fz")" "$CORPUS" 2>&1 | tail -4 || FAILED=1
  done
  rm -rf "$CORPUS"
  stage_end 6
fi

echo
echo "total $(( $(date +%s) - START )) s"
if [ "$FAILED" != 0 ]; then
  echo "FAILED"
  exit 1
fi
echo "all stages passed"
