// EyeLike: a 2-D input's shape; the type is ConstantParam.value's dataType when a value is given
// (the ONNX dtype attribute), else the input's type. ConstantParam.k is the diagonal offset.
#include "ShapeUtils.hpp"
#include "backend/cpu/ops/CPUTypeDispatch.hpp"

namespace MNN {
static ErrorCode shapeEyeLike(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                              const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output, got %d and %d", (int)inputs.size(),
                                 (int)outputs.size());
    }
    const Tensor* x = inputs[0];
    if (x->dimensions() != 2) {
        return ShapeUtils::error(op, INVALID_VALUE, "input %s must be 2-D, got %s",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::shapeString(x).c_str());
    }
    auto param = op->param_as_ConstantParam();
    halide_type_t type = x->getType();
    if (param && param->value()) {
        type = TensorUtils::typeOf(param->value()->dataType());
    }
    if (!CPUUtils::isNumericType(type)) {
        return ShapeUtils::error(op, NOT_SUPPORT, "unsupported output type %s (input %s)", TensorUtils::typeName(type),
                                 TensorUtils::describe(x)->name.c_str());
    }
    ShapeUtils::setOutput(outputs[0], TensorUtils::shape(x), type);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(EyeLike, ShapeEntry{shapeEyeLike, nullptr, 0})
