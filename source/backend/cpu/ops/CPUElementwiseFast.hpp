// Fast float32 UnaryOp / BinaryOp over the kernel table (unaryF32 / binaryF32 of CPUCoreFunctions).
#ifndef MNN_CPU_CPUELEMENTWISEFAST_HPP
#define MNN_CPU_CPUELEMENTWISEFAST_HPP

#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

/**
 * The fast Execution for a float32 unary op the table covers, else nullptr (the caller uses the
 * reference). env MNN_ELEMENTWISE=reference forces nullptr (the reference kernels, computed in double).
 */
Execution* createFastUnary(const std::vector<Tensor*>& inputs, const Schema::UnaryParam* param, Backend* backend);

/** the same for a float32 binary op (Add, Sub, Mul, Div, Max, Min) with numpy broadcasting */
Execution* createFastBinary(const std::vector<Tensor*>& inputs, Schema::BinaryOpType type, Backend* backend);

/**
 * Softmax's blocks: X = [outer, len, inner] where len is dim `axis` (coerce2D: the flattened dims
 * [axis, rank)); false when the axis is out of range (the caller's onResize gives the reason)
 */
bool softmaxExtents(const std::vector<int>& shape, int axis, bool coerce2D, int64_t* outer, int64_t* len,
                    int64_t* inner);

/** float32 Softmax / LogSoftmax (mode: Schema::SoftmaxMode) over the table, else nullptr (Hardmax,
 * other types, MNN_ELEMENTWISE=reference) */
Execution* createFastSoftmax(const std::vector<Tensor*>& inputs, int axis, int mode, bool coerce2D, Backend* backend);

}  // namespace MNN
#endif
