// Float32 elementwise kernels, avx2 tier: ElementwiseKernels.inl compiled with this file's flags.
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <stdint.h>
#include <string.h>
#include "backend/cpu/CPUCoreFunctions.hpp"

namespace {
#include "backend/cpu/ElementwiseKernels.inl"
} // namespace

namespace MNN {
void unary_f32__avx2(int op, const float* x, float* y, int64_t n, float a, float b) {
    ewUnary(op, x, y, n, a, b);
}
void binary_f32__avx2(int op, const float* a, const float* b, float* c, int64_t n, int mode) {
    ewBinary(op, a, b, c, n, mode);
}
} // namespace MNN
#endif
