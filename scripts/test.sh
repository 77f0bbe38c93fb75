#!/usr/bin/env bash
# Second command of the README: builds everything and passes all tests. CI runs exactly this.
# Stages (budget on a 2-core machine, printed as they go):
#   1. Release build of library, converter, tools, tests            (~15 min)
#   2. ctest: op, API, converter, tool, CV, conformance, models (corpus vs PyTorch, the PyPI
#      real-weight zoo vs ONNX Runtime, dynamic axes) (~10 min), then the op tests
#      again at each lower ISA tier of this CPU (MNN_CPU_ISA=scalar / sse41 / avx2) (~2 min)
#   3. install to a temporary prefix; outside find_package client    (~1 min)
#   4. clang ASan+UBSan build: op, API, converter, tool, CV, conformance
#      tests and fuzz regressions, then 3 fuzzers x 60 s            (~20 min)
#   5. aarch64 cross build of the core with op + API tests, qemu     (~12 min)
#   6. TSan build: the threading tests                               (~6 min)
#   7. valgrind memcheck (stage 1 build): leak test, API, converter, CV, tools (~3 min)
# Set MNN_TEST_STAGES="1 2 3" to run a subset locally.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
JOBS=${JOBS:-$(nproc)}
STAGES=${MNN_TEST_STAGES:-"1 2 3 4 5 6 7"}
./scripts/install-deps.sh
START=$(date +%s)
stage_start() { STAGE_T=$(date +%s); echo; echo "=== stage $1: $2 (budget $3 min) ==="; }
stage_end() { echo "=== stage $1 done in $(( $(date +%s) - STAGE_T )) s (total $(( $(date +%s) - START )) s) ==="; }
want() { [[ " $STAGES " == *" $1 "* ]]; }
FAILED=0
FAILURES=()
# fail WHAT [BUILD_DIR]: remembers the failure for the summary at the end (CI logs are often read
# from their tail); with BUILD_DIR, the names of that ctest run's failed tests go with it
fail() {
  FAILED=1
  local what="$1"
  if [ $# -gt 1 ] && [ -f "$2/Testing/Temporary/LastTestsFailed.log" ]; then
    what="$what: $(cut -d: -f2 "$2/Testing/Temporary/LastTestsFailed.log" | head -20 | tr '\n' ' ')"
  fi
  FAILURES+=("$what")
}

if want 1 || want 2 || want 3 || want 7; then
  stage_start 1 "Release build" 15
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release > build.configure.log 2>&1 || { cat build.configure.log; exit 1; }
  cmake --build build -j"$JOBS"
  stage_end 1
fi

# The ISA tiers of this CPU as the engine names them (MNN_CPU_ISA, source/backend/cpu/CPUFeatures.cpp),
# lowest first, from /proc/cpuinfo's flags: scalar always; sse41; avx2 (with fma, f16c); avx512 (f, bw,
# vl). The engine's own CPUID check also asks for the OS's register state, which Linux reports
# through these flags.
cpuTiers() {
  local flags
  flags=" $(grep -m1 '^flags' /proc/cpuinfo 2> /dev/null | cut -d: -f2) "
  local tiers="scalar"
  if [[ "$flags" == *" sse4_1 "* ]]; then tiers="$tiers sse41"; else echo "$tiers"; return; fi
  if [[ "$flags" == *" avx2 "* && "$flags" == *" fma "* && "$flags" == *" f16c "* ]]; then
    tiers="$tiers avx2"
  else
    echo "$tiers"; return
  fi
  if [[ "$flags" == *" avx512f "* && "$flags" == *" avx512bw "* && "$flags" == *" avx512vl "* ]]; then
    tiers="$tiers avx512"
  fi
  echo "$tiers"
}

if want 2; then
  # Then the op tests once more per tier below this CPU's best (MNN_CPU_ISA lowers the tier the
  # engine picks by default), so that a test asserting a kernel or algorithm choice at the default
  # tier is checked on every tier a CI machine may have (AVX2-only Zen 3, AVX-512 Zen 4); tests that
  # loop over tiers themselves (cpuSetTierOverride) do so in every pass. One pass of the op label
  # takes ~15-40 s at -j2 (2026-12, 2-core AVX-512 host, scalar the slowest): budget 3 min for all.
  stage_start 2 "tests (ctest), then the op tests at each lower ISA tier" 13
  (cd build && ctest -j"$JOBS" -LE valgrind --output-on-failure --timeout 1200) || fail "stage 2 ctest" build
  TIERS=($(cpuTiers))
  BEST=${TIERS[${#TIERS[@]}-1]}
  RAN="$BEST (default, all labels)"
  for tier in "${TIERS[@]}"; do
    [ "$tier" = "$BEST" ] && continue
    T0=$(date +%s)
    (cd build && MNN_CPU_ISA=$tier ctest -j"$JOBS" -L '^ops$' --output-on-failure --timeout 600 > "ctest-ops-$tier.log" 2>&1) \
      || { tail -80 "build/ctest-ops-$tier.log"; fail "stage 2 op tests at MNN_CPU_ISA=$tier" build; }
    echo "op tests at MNN_CPU_ISA=$tier: $(grep -m1 'tests passed' "build/ctest-ops-$tier.log") ($(( $(date +%s) - T0 )) s)"
    RAN="$RAN, $tier (ops)"
  done
  echo "ISA tiers run: $RAN"
  stage_end 2
fi

if want 3; then
  stage_start 3 "install + outside client" 1
  PREFIX=$(mktemp -d)
  cmake --install build --prefix "$PREFIX" > /dev/null
  cmake -S test/install/client -B "$PREFIX/client-build" -G Ninja -DCMAKE_PREFIX_PATH="$PREFIX" > /dev/null
  cmake --build "$PREFIX/client-build"
  # every public header as apps use them; batch 1 against PyTorch's output, batch 2 against batch 1
  "$PREFIX/client-build/mnn_client" "$ROOT/examples/models/small_cnn.mnn" "$ROOT/examples/models/small_cnn_input.npy" \
    "$ROOT/examples/models/small_cnn_output.npy" || fail "stage 3 outside client"
  for tool in MNNConvert MNNInfo MNNRun MNNBenchmark; do
    if [ -x "$PREFIX/bin/$tool" ]; then
      "$PREFIX/bin/$tool" --help > /dev/null || fail "stage 3 $tool --help from the prefix"
    fi
  done
  if [ -x "$PREFIX/bin/MNNInfo" ]; then "$PREFIX/bin/MNNInfo" "$ROOT/examples/models/small_cnn.mnn" | head -3 || fail "stage 3 MNNInfo from the prefix"; fi
  rm -rf "$PREFIX"
  stage_end 3
fi

if want 4; then
  # One clang build serves both: ASan+UBSan instrumented library, the test suites, and the
  # libFuzzer targets (MNN_FUZZ adds -fsanitize=fuzzer-no-link,address,undefined everywhere).
  # Not here: the real-model zoo (the corpus and ASan builds of the big networks are too slow for
  # the CI budget; docs/robustness.md says how to run it by hand).
  stage_start 4 "ASan+UBSan (clang): op, API, converter, tool, CV, conformance tests, then fuzzing ${MNN_FUZZ_SECONDS:-60} s per target" 20
  CC=clang CXX=clang++ cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMNN_FUZZ=ON \
    -DMNN_BUILD_BENCHMARK=OFF -DMNN_BUILD_SHARED=OFF > /dev/null
  cmake --build build-asan -j"$JOBS" --target MNNOpTests MNNApiTests MNNConverterTests MNNToolTests MNNCvTests \
    MNNNpyTests MNNOnnxSuite mnn_classify mnn_fuzz_seeds mnn_fuzz_model mnn_fuzz_imageprocess mnn_fuzz_onnx
  # halt_on_error: MNN_FUZZ builds UBSan in recoverable mode, where a finding only prints
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  (cd build-asan && ASAN_OPTIONS=detect_leaks=1 \
    ctest -j"$JOBS" -L "^(ops|api|converter|tools|cv|conformance|fuzz)$" --output-on-failure) || fail "stage 4 ASan ctest" build-asan
  CORPUS=$(mktemp -d)
  mkdir -p "$CORPUS/mnn_fuzz_model" "$CORPUS/mnn_fuzz_onnx" "$CORPUS/mnn_fuzz_imageprocess"
  ./build-asan/test/fuzz/mnn_fuzz_seeds "$CORPUS/mnn_fuzz_model"
  cp examples/models/*.mnn "$CORPUS/mnn_fuzz_model/"
  cp examples/models/*.onnx "$CORPUS/mnn_fuzz_onnx/"
  for t in add conv_with_strides_padding relu reshape_extended_dims gather_0 resize_upsample_scales_linear; do
    f=/usr/share/libonnx-testdata/data/node/test_$t/model.onnx
    if [ -f "$f" ]; then cp "$f" "$CORPUS/mnn_fuzz_onnx/$t.onnx"; fi
  done
  head -c 256 /dev/urandom > "$CORPUS/mnn_fuzz_imageprocess/seed0"
  ARTIFACTS="$ROOT/build-asan/fuzz-artifacts"
  # the first frames of a finding's stack that are the engine's (not libFuzzer's, the sanitizers' or
  # the allocator's), on one line: the fail line must say where even when the input is too big to print
  fuzzFrames() {
    grep -E '^ +#[0-9]+ 0x[0-9a-f]+ in ' "$1" | grep -v -E ' in (fuzzer::|__sanitizer|__asan|__ubsan|__interceptor|malloc|calloc|realloc|operator new|__libc|_start|main )' \
      | head -6 | sed -E 's/^ +#[0-9]+ 0x[0-9a-f]+ in //; s/ \/[^ ]*\/(source|test)\// \1\//' | tr '\n' '|' || true
  }
  mkdir -p "$ARTIFACTS"
  for name in mnn_fuzz_model mnn_fuzz_onnx mnn_fuzz_imageprocess; do
    # earlier crashes seed the corpus too, so the mutations start next to known weak spots
    if [ -d "test/fuzz/regressions/$name" ]; then cp test/fuzz/regressions/$name/* "$CORPUS/$name/"; fi
    # seeds that reach the packed layout's kernels and the converter's fusions (ChannelShuffle, Pad folding)
    if [ -d "test/fuzz/seeds/$name" ]; then cp test/fuzz/seeds/$name/* "$CORPUS/$name/"; fi
    echo "fuzzing $name for ${MNN_FUZZ_SECONDS:-60} s"
    # -close_fd_mask=3: the engine's log lines go nowhere, libFuzzer's and the sanitizers' stay
    ASAN_OPTIONS=detect_leaks=1 "./build-asan/test/fuzz/$name" -max_total_time="${MNN_FUZZ_SECONDS:-60}" \
      -rss_limit_mb=2048 -timeout=20 -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$ARTIFACTS/$name-" \
      "$CORPUS/$name" > "$CORPUS/$name.log" 2>&1 \
      || { tail -60 "$CORPUS/$name.log"; ls "$ARTIFACTS"; fail "stage 4 fuzzing $name: $(grep -m1 -E 'ERROR|SUMMARY|deadly|Test unit written' "$CORPUS/$name.log"); where: $(fuzzFrames "$CORPUS/$name.log"); input (base64): $(for a in "$ARTIFACTS"/*; do [ -f "$a" ] && [ "$(stat -c %s "$a")" -le 3000 ] && base64 -w0 "$a"; done)"; }
    grep -E "stat::number_of_executed_units|stat::new_units_added" "$CORPUS/$name.log" || true
  done
  rm -rf "$CORPUS"
  unset UBSAN_OPTIONS
  stage_end 4
fi

if want 5; then
  stage_start 5 "aarch64 cross build, op and API tests under qemu-aarch64-static -cpu max" 12
  cmake -S . -B build-aarch64 -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/aarch64-linux-gnu.cmake" \
    -DMNN_BUILD_CONVERTER=OFF -DMNN_BUILD_TOOLS=OFF -DMNN_BUILD_BENCHMARK=OFF -DMNN_BUILD_SHARED=OFF > /dev/null
  cmake --build build-aarch64 -j"$JOBS" --target MNNOpTests MNNApiTests
  (cd build-aarch64 && ctest -j"$JOBS" -L "^(ops|api)$" --output-on-failure) || fail "stage 5 aarch64 ctest" build-aarch64
  stage_end 5
fi


if want 6; then
  stage_start 6 "TSan: threading tests" 6
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMNN_SANITIZE=thread \
    -DMNN_BUILD_CONVERTER=OFF -DMNN_BUILD_TOOLS=OFF -DMNN_BUILD_BENCHMARK=OFF -DMNN_BUILD_SHARED=OFF > /dev/null
  cmake --build build-tsan -j"$JOBS" --target MNNApiTests
  (cd build-tsan && TSAN_OPTIONS="halt_on_error=1" ctest -j"$JOBS" -R "ThreadSafety" --output-on-failure) || fail "stage 6 TSan ctest" build-tsan
  stage_end 6
fi

if want 7; then
  # Reuses the stage 1 Release build (valgrind needs no instrumented build); the tests are
  # registered only when valgrind was found at configure time.
  stage_start 7 "valgrind memcheck: leak test, API, converter, CV suites, tools" 5
  if command -v valgrind > /dev/null; then
    if (cd build && ctest -N -L "^valgrind$" | grep -q "Total Tests: [1-9]"); then
      (cd build && ctest -j"$JOBS" -L "^valgrind$" --output-on-failure) || fail "stage 7 valgrind ctest" build
    else
      fail "stage 7: no valgrind tests registered in build/ (configured before valgrind was installed?)"
    fi
  else
    fail "stage 7: valgrind not installed"
  fi
  stage_end 7
fi

echo
echo "total $(( $(date +%s) - START )) s"
if [ "$FAILED" != 0 ]; then
  for f in "${FAILURES[@]}"; do echo "failed: $f"; done
  echo "FAILED"
  exit 1
fi
echo "all stages passed"
