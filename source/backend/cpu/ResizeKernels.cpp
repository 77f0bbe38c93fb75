// Float32 2-D resize rows, scalar tier: ResizeKernels.inl with this file's flags.
#include <stdint.h>
#include <string.h>
#include "CPUCoreFunctions.hpp"

#define MNN_RESIZE_VEC_BYTES 16
namespace {
#include "ResizeKernels.inl"
}  // namespace

namespace MNN {
void resize_row_h__scalar(const float* src, const int32_t* i0, const int32_t* i1, const float* w0, const float* w1,
                          float* dst, int n) {
    rzRowH(src, i0, i1, w0, w1, dst, n);
}
void resize_blend_v__scalar(const float* r0, const float* r1, float w0, float w1, float* dst, int n) {
    rzBlendV(r0, r1, w0, w1, dst, n);
}
}  // namespace MNN
