// Packed-layout (NC16HW16) depthwise and pooling rows, scalar tier (16-byte vectors of the
// baseline ISA): PackedDepthwiseKernels.inl with this file's flags.
#include <float.h>
#include <stdint.h>
#include <string.h>
#include "CPUCoreFunctions.hpp"

#define MNN_PK_VEC_BYTES 16
namespace {
#include "PackedDepthwiseKernels.inl"
}  // namespace

namespace MNN {
void dwpack__scalar(const PackedDwRow* row) {
    pkDwRow(row);
}
void poolpack__scalar(const PackedPoolRow* row) {
    pkPoolRow(row);
}
void packsum__scalar(const float* x, int64_t positions, float* acc) {
    pkSumPositions(x, positions, acc);
}
}  // namespace MNN
