// DynamicQuantizeLinear (ONNX): X float32 -> Y uint8 (X's shape), y_scale float32 and
// y_zero_point uint8 (both rank 0). Outputs may be dropped from the back.
#include "ShapeUtils.hpp"

namespace MNN {

static ErrorCode shapeDynamicQuantizeLinear(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                            const std::vector<Tensor*>& outputs) {
    if (inputs.size() != 1 || !ShapeUtils::has(inputs, 0) || outputs.empty() || outputs.size() > 3) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs input X and 1 to 3 outputs, got %d inputs and %d outputs",
                                 (int)inputs.size(), (int)outputs.size());
    }
    auto x = inputs[0];
    if (!(x->getType() == halide_type_of<float>())) {
        return ShapeUtils::error(op, NOT_SUPPORT, "X %s %s has type %s; only float32 is supported",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::shapeString(x).c_str(),
                                 TensorUtils::typeName(x->getType()));
    }
    const halide_type_t types[3] = {halide_type_of<uint8_t>(), halide_type_of<float>(), halide_type_of<uint8_t>()};
    for (size_t i = 0; i < outputs.size(); ++i) {
        if (outputs[i]) {
            ShapeUtils::setOutput(outputs[i], i == 0 ? TensorUtils::shape(x) : std::vector<int>{}, types[i]);
        }
    }
    return NO_ERROR;
}

static double flopsDynamicQuantizeLinear(const Schema::Op*, const std::vector<Tensor*>& inputs,
                                         const std::vector<Tensor*>&) {
    return 3.0 * (double)TensorUtils::elementCount(inputs[0]);
}

}  // namespace MNN

MNN_REGISTER_SHAPE(DynamicQuantizeLinear, ShapeEntry{shapeDynamicQuantizeLinear, flopsDynamicQuantizeLinear, 0})
