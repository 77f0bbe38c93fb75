// Packed-layout Winograd transforms, scalar tier (16-byte vectors): PackedWinogradKernels.inl with
// this file's flags.
#include <stdint.h>
#include <string.h>
#include "CPUCoreFunctions.hpp"
#include "WinogradConstTables.hpp"

#define MNN_PWG_VEC_BYTES 16
namespace {
#include "PackedWinogradKernels.inl"
}  // namespace

namespace MNN {
void pwino_input__scalar(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, const float* bt, int alpha,
                         float* v, int64_t eStride) {
    pwInput(x, ih, iw, iy0, ix0, m, nx, bt, alpha, v, eStride);
}
void pwino_output__scalar(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx, const float* bias,
                          float* y, int64_t yRowStride, int rows, int cols, const GemmPost* post) {
    pwOutput(o, eStride, at, alpha, m, nx, bias, y, yRowStride, rows, cols, post);
}
void pwino_input1d__scalar(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, int vertical,
                           const float* bt, int alpha, float* v, int64_t eStride) {
    pw1Input(x, ih, iw, iy0, ix0, m, nx, vertical, bt, alpha, v, eStride);
}
void pwino_output1d__scalar(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx, int vertical,
                            const float* bias, float* y, int64_t yRowStride, int rows, int cols, const GemmPost* post) {
    pw1Output(o, eStride, at, alpha, m, nx, vertical, bias, y, yRowStride, rows, cols, post);
}
}  // namespace MNN
