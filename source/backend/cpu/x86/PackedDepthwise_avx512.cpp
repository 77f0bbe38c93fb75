// Packed-layout (NC16HW16) depthwise and pooling rows, avx512 tier (64-byte vectors):
// PackedDepthwiseKernels.inl with this file's flags.
#if defined(__x86_64__) || defined(_M_X64)
#include <float.h>
#include <stdint.h>
#include <string.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

#define MNN_PK_VEC_BYTES 64
namespace {
#include "backend/cpu/PackedDepthwiseKernels.inl"
}  // namespace

namespace MNN {
void dwpack__avx512(const PackedDwRow* row) {
    pkDwRow(row);
}
void poolpack__avx512(const PackedPoolRow* row) {
    pkPoolRow(row);
}
void packsum__avx512(const float* x, int64_t positions, float* acc) {
    pkSumPositions(x, positions, acc);
}
}  // namespace MNN
#endif
