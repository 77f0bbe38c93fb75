// LayerNorm / RMSNorm rows, sse41 tier: NormKernels.inl with this file's flags.
#if defined(__x86_64__) || defined(_M_X64)
#include <math.h>
#include <stdint.h>
#include <string.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

#define MNN_NORM_VEC_BYTES 16
namespace {
#include "backend/cpu/NormKernels.inl"
}  // namespace

namespace MNN {
void layernorm_row__sse41(const float* x, float* y, int64_t n, const float* scale, const float* bias, float eps,
                          int flags, float* stats) {
    nmRow(x, y, n, scale, bias, eps, flags, stats);
}
}  // namespace MNN
#endif
