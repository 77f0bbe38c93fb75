// Cast: same shape, element type from CastParam.to. float16 / bfloat16 tensors are float32 inside
// the engine (values rounded to that precision); bool is uint8 0/1.
#include "ShapeUtils.hpp"
#include "backend/cpu/ops/CPUTypeDispatch.hpp"

namespace MNN {
static ErrorCode shapeCast(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                           const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output, got %d and %d", (int)inputs.size(),
                                 (int)outputs.size());
    }
    auto param = op->param_as_CastParam();
    if (!param) {
        return ShapeUtils::error(op, INVALID_VALUE, "missing CastParam");
    }
    auto it = inputs[0]->getType();
    if (!CPUUtils::isNumericType(it)) {
        return ShapeUtils::error(op, NOT_SUPPORT, "input %s has unsupported type %s",
                                 TensorUtils::describe(inputs[0])->name.c_str(), TensorUtils::typeName(it));
    }
    auto to = param->to();
    auto ot = TensorUtils::typeOf(to);
    if (!CPUUtils::isNumericType(ot)) {
        return ShapeUtils::error(op, NOT_SUPPORT, "unsupported target type %s (%d)", Schema::EnumNameDataType(to),
                                 (int)to);
    }
    ShapeUtils::setOutput(outputs[0], TensorUtils::shape(inputs[0]), ot);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(Cast, ShapeEntry{shapeCast, nullptr, 0})
