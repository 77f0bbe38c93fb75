// Winograd transforms, scalar tier (16-byte vectors): WinogradKernels.inl with this file's flags.
#include <stdint.h>
#include <string.h>
#include "CPUCoreFunctions.hpp"

#define MNN_WG_VEC_BYTES 16
namespace {
#include "WinogradKernels.inl"
}  // namespace

namespace MNN {
void wino_input__scalar(const float* d, const float* bt, int alpha, int nr, float* v, int64_t xiStride) {
    wgInput(d, bt, alpha, nr, v, xiStride);
}
void wino_output__scalar(const float* o, int64_t xiStride, const float* at, int alpha, int m, int nr, float bias,
                         float* y, const GemmPost* post) {
    wgOutput(o, xiStride, at, alpha, m, nr, bias, y, post);
}
}  // namespace MNN
