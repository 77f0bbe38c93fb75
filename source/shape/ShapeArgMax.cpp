// ArgMax / ArgMin (ArgParam.isMin): int64 indices along `axis`; keepDims leaves a 1 there.
// Without an ArgParam the ONNX defaults apply (axis 0, keepDims, first index).
#include "ShapeUtils.hpp"
#include "backend/cpu/ops/CPUTypeDispatch.hpp"

namespace MNN {
static ErrorCode shapeArgMax(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                             const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output, got %d and %d", (int)inputs.size(),
                                 (int)outputs.size());
    }
    auto param = op->param_as_ArgParam();
    const Tensor* x = inputs[0];
    if (!CPUUtils::isNumericType(x->getType())) {
        return ShapeUtils::error(op, NOT_SUPPORT, "input %s has unsupported type %s",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::typeName(x->getType()));
    }
    auto shape = TensorUtils::shape(x);
    const int rank = (int)shape.size();
    const int axisIn = param ? param->axis() : 0;
    const int axis = ShapeUtils::normalizeAxis(axisIn, rank);
    if (axis < 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis %d is out of range for input %s of rank %d", axisIn,
                                 TensorUtils::describe(x)->name.c_str(), rank);
    }
    std::vector<int> out;
    int64_t outCount = 1;
    for (int i = 0; i < rank; ++i) {
        if (i != axis) {
            out.push_back(shape[i]);
            outCount *= shape[i];
        } else if (!param || param->keepDims()) {
            out.push_back(1);
        }
    }
    if (shape[axis] == 0 && outCount > 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis %d of input %s is empty: no index to return", axisIn,
                                 TensorUtils::describe(x)->name.c_str());
    }
    ShapeUtils::setOutput(outputs[0], out, halide_type_of<int64_t>());
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(ArgMax, ShapeEntry{shapeArgMax, nullptr, 0})
