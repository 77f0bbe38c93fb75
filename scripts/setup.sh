#!/usr/bin/env bash
# First command of the README: installs what is missing, builds, and runs the example program on
# the bundled example model.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
./build/examples/hello/mnn_hello examples/models/small_cnn.mnn examples/models/small_cnn_input.npy \
  examples/models/small_cnn_output.npy
