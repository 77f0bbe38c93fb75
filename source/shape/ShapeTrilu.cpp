// Trilu: inputs input (rank >= 2), [k] (one int32/int64 value); output like input.
// Without a TriluParam the ONNX default (upper) applies.
#include "ShapeUtils.hpp"
#include "backend/cpu/ops/CPUTypeDispatch.hpp"

namespace MNN {
static ErrorCode shapeTrilu(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                            const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs an input and 1 output, got %d and %d", (int)inputs.size(),
                                 (int)outputs.size());
    }
    const Tensor* x = inputs[0];
    if (x->dimensions() < 2) {
        return ShapeUtils::error(op, INVALID_VALUE, "input %s must have rank >= 2, got %s",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::shapeString(x).c_str());
    }
    if (!CPUUtils::isNumericType(x->getType())) {
        return ShapeUtils::error(op, NOT_SUPPORT, "input %s has unsupported type %s",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::typeName(x->getType()));
    }
    if (ShapeUtils::has(inputs, 1)) {
        auto kt = inputs[1]->getType();
        if (!(kt.code == halide_type_int && (kt.bits == 32 || kt.bits == 64)) ||
            TensorUtils::elementCount(inputs[1]) != 1) {
            return ShapeUtils::error(op, INVALID_VALUE, "k input %s must hold one int32/int64 value, got %s %s",
                                     TensorUtils::describe(inputs[1])->name.c_str(), TensorUtils::typeName(kt),
                                     TensorUtils::shapeString(inputs[1]).c_str());
        }
    }
    ShapeUtils::setOutputLike(outputs[0], x);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(Trilu, ShapeEntry{shapeTrilu, nullptr, 0})
