#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs (build, tests, converter, cross build, models).
# Only what is missing is installed. Runs as root (or through sudo when available).
set -euo pipefail
PKGS=(
  build-essential cmake ninja-build pkg-config
  libflatbuffers-dev flatbuffers-compiler
  libprotobuf-dev protobuf-compiler libonnx-dev libonnx-testdata
  libgtest-dev libbenchmark-dev
  g++-aarch64-linux-gnu qemu-user-static
  python3 python3-numpy python3-torch python3-torchvision python3-onnx python3-opencv
  libstb-dev clang libclang-rt-14-dev valgrind
)
missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PKGS[@]} packages present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
