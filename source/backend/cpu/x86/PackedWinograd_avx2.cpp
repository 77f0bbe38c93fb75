// Packed-layout Winograd transforms, avx2 tier (32-byte vectors): PackedWinogradKernels.inl with this
// file's flags.
#if defined(__x86_64__) || defined(_M_X64)
#include <stdint.h>
#include <string.h>
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/WinogradConstTables.hpp"

#define MNN_PWG_VEC_BYTES 32
namespace {
#include "backend/cpu/PackedWinogradKernels.inl"
}  // namespace

namespace MNN {
void pwino_input__avx2(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, const float* bt, int alpha,
                       float* v, int64_t eStride) {
    pwInput(x, ih, iw, iy0, ix0, m, nx, bt, alpha, v, eStride);
}
void pwino_output__avx2(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx, const float* bias,
                        float* y, int64_t yRowStride, int rows, int cols, const GemmPost* post) {
    pwOutput(o, eStride, at, alpha, m, nx, bias, y, yRowStride, rows, cols, post);
}
void pwino_input1d__avx2(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, int vertical, const float* bt,
                         int alpha, float* v, int64_t eStride) {
    pw1Input(x, ih, iw, iy0, ix0, m, nx, vertical, bt, alpha, v, eStride);
}
void pwino_output1d__avx2(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx, int vertical,
                          const float* bias, float* y, int64_t yRowStride, int rows, int cols, const GemmPost* post) {
    pw1Output(o, eStride, at, alpha, m, nx, vertical, bias, y, yRowStride, rows, cols, post);
}
}  // namespace MNN
#endif
