// Depthwise convolution rows, scalar tier (16-byte vectors): DepthwiseKernels.inl with this file's flags.
#include <stdint.h>
#include <string.h>
#include "CPUCoreFunctions.hpp"

#define MNN_DW_VEC_BYTES 16
namespace {
#include "DepthwiseKernels.inl"
} // namespace

namespace MNN {
void dwconv_rows__scalar(const float* src, int64_t rowStep, const int32_t* tapOff, const float* w, int taps,
                        float bias, float* y, int oh, int ow, const GemmPost* post) {
    dwRows(src, rowStep, tapOff, w, taps, bias, y, oh, ow, post);
}
double plane_sum__scalar(const float* x, int64_t n) {
    return dwPlaneSum(x, n);
}
void pool_rows__scalar(const float* src, int64_t rowStep, const int32_t* tapOff, int taps, int isMax,
                     const float* invY, const float* invX, float* y, int oh, int ow) {
    dwPoolRows(src, rowStep, tapOff, taps, isMax, invY, invX, y, oh, ow);
}
void dwconv_channels__scalar(const float* x, int64_t inPlane, int nch, const DwChannelGeom* g, const float* wv,
                            const float* bv, float* y, int64_t outPlane, const GemmPost* post, float* scratch) {
    dwChannels(x, inPlane, nch, g, wv, bv, y, outPlane, post, scratch);
}
int dwconv_lanes__scalar() {
    return kDwLanes;
}
} // namespace MNN
