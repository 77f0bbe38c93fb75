// LayerNorm / RMSNorm rows, scalar tier: NormKernels.inl with this file's flags.
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "CPUCoreFunctions.hpp"

#define MNN_NORM_VEC_BYTES 16
namespace {
#include "NormKernels.inl"
}  // namespace

namespace MNN {
void layernorm_row__scalar(const float* x, float* y, int64_t n, const float* scale, const float* bias, float eps,
                           int flags, float* stats) {
    nmRow(x, y, n, scale, bias, eps, flags, stats);
}
}  // namespace MNN
