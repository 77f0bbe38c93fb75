// Float32 2-D resize rows, sse41 tier: ResizeKernels.inl with this file's flags.
#if defined(__x86_64__) || defined(_M_X64)
#include <stdint.h>
#include <string.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

#define MNN_RESIZE_VEC_BYTES 16
namespace {
#include "backend/cpu/ResizeKernels.inl"
}  // namespace

namespace MNN {
void resize_row_h__sse41(const float* src, const int32_t* i0, const int32_t* i1, const float* w0, const float* w1,
                         float* dst, int n) {
    rzRowH(src, i0, i1, w0, w1, dst, n);
}
void resize_blend_v__sse41(const float* r0, const float* r1, float w0, float w1, float* dst, int n) {
    rzBlendV(r0, r1, w0, w1, dst, n);
}
}  // namespace MNN
#endif
