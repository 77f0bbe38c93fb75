// Float32 elementwise kernels, scalar tier: ElementwiseKernels.inl compiled with this file's flags.
#include <stdint.h>
#include <string.h>
#include "CPUCoreFunctions.hpp"

namespace {
#include "ElementwiseKernels.inl"
} // namespace

namespace MNN {
void unary_f32__scalar(int op, const float* x, float* y, int64_t n, float a, float b) {
    ewUnary(op, x, y, n, a, b);
}
void binary_f32__scalar(int op, const float* a, const float* b, float* c, int64_t n, int mode) {
    ewBinary(op, a, b, c, n, mode);
}
} // namespace MNN
