// CumSum: inputs x, axis (one int32/int64 value, read by value to validate it); output like x.
#include "ShapeUtils.hpp"
#include "backend/cpu/ops/CPUTypeDispatch.hpp"

namespace MNN {
static ErrorCode shapeCumSum(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                             const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs inputs x, axis and 1 output, got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    const Tensor* x = inputs[0];
    const Tensor* a = inputs[1];
    if (!CPUUtils::isNumericType(x->getType())) {
        return ShapeUtils::error(op, NOT_SUPPORT, "input %s has unsupported type %s",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::typeName(x->getType()));
    }
    auto at = a->getType();
    if (!(at.code == halide_type_int && (at.bits == 32 || at.bits == 64)) || TensorUtils::elementCount(a) != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis input %s must hold one int32/int64 value, got %s %s",
                                 TensorUtils::describe(a)->name.c_str(), TensorUtils::typeName(at),
                                 TensorUtils::shapeString(a).c_str());
    }
    const int rank = x->dimensions();
    auto avals = ShapeUtils::readInts(a);
    if (avals.empty()) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis input %s has no value",
                                 TensorUtils::describe(a)->name.c_str());
    }
    const int64_t axis = avals[0];
    if (axis < -rank || axis >= rank) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis %lld is out of range for input %s of rank %d",
                                 (long long)axis, TensorUtils::describe(x)->name.c_str(), rank);
    }
    ShapeUtils::setOutputLike(outputs[0], x);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(CumSum, ShapeEntry{shapeCumSum, nullptr, 0x2u})
