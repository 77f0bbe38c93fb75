// Winograd transforms, avx2 tier (32-byte vectors): WinogradKernels.inl with this file's flags.
#if defined(__x86_64__) || defined(_M_X64)
#include <stdint.h>
#include <string.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

#define MNN_WG_VEC_BYTES 32
namespace {
#include "backend/cpu/WinogradKernels.inl"
}  // namespace

namespace MNN {
void wino_input__avx2(const float* d, const float* bt, int alpha, int nr, float* v, int64_t xiStride) {
    wgInput(d, bt, alpha, nr, v, xiStride);
}
void wino_output__avx2(const float* o, int64_t xiStride, const float* at, int alpha, int m, int nr, float bias,
                       float* y, const GemmPost* post) {
    wgOutput(o, xiStride, at, alpha, m, nr, bias, y, post);
}
}  // namespace MNN
#endif
