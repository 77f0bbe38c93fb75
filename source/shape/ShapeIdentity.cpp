// Identity and Dropout. Identity: output like input. Dropout(data, [ratio], [training_mode]) ->
// output like data, [mask] bool of data's shape (DropoutParam: the mask generator's seed).
#include "ShapeUtils.hpp"
#include "backend/cpu/ops/CPUTypeDispatch.hpp"

namespace MNN {
static ErrorCode shapeIdentity(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                               const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output, got %d and %d", (int)inputs.size(),
                                 (int)outputs.size());
    }
    if (!CPUUtils::isNumericType(inputs[0]->getType())) {
        return ShapeUtils::error(op, NOT_SUPPORT, "input %s has unsupported type %s",
                                 TensorUtils::describe(inputs[0])->name.c_str(),
                                 TensorUtils::typeName(inputs[0]->getType()));
    }
    ShapeUtils::setOutputLike(outputs[0], inputs[0]);
    return NO_ERROR;
}

static ErrorCode shapeDropout(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                              const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.empty() || outputs.size() > 2) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs data input and 1 or 2 outputs, got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    const Tensor* x = inputs[0];
    if (!CPUUtils::isNumericType(x->getType())) {
        return ShapeUtils::error(op, NOT_SUPPORT, "input %s has unsupported type %s",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::typeName(x->getType()));
    }
    if (ShapeUtils::has(inputs, 1) &&
        (!CPUUtils::isFloatType(inputs[1]->getType()) || TensorUtils::elementCount(inputs[1]) != 1)) {
        return ShapeUtils::error(op, INVALID_VALUE, "ratio input %s must hold one float value",
                                 TensorUtils::describe(inputs[1])->name.c_str());
    }
    if (ShapeUtils::has(inputs, 2) &&
        (!CPUUtils::isBoolType(inputs[2]->getType()) || TensorUtils::elementCount(inputs[2]) != 1)) {
        return ShapeUtils::error(op, INVALID_VALUE, "training_mode input %s must hold one bool value",
                                 TensorUtils::describe(inputs[2])->name.c_str());
    }
    ShapeUtils::setOutputLike(outputs[0], x);
    if (outputs.size() == 2) {
        ShapeUtils::setOutput(outputs[1], TensorUtils::shape(x), halide_type_of<uint8_t>());
    }
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(Identity, ShapeEntry{shapeIdentity, nullptr, 0})
MNN_REGISTER_SHAPE(Dropout, ShapeEntry{shapeDropout, nullptr, 0})
