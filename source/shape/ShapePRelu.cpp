// PRelu: inputs X, slope; slope broadcasts to X in one direction (numpy rule); Y has X's shape and type.
#include "NormShapeUtils.hpp"
#include "ShapeUtils.hpp"

namespace MNN {

static ErrorCode shapePRelu(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                            const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || inputs.size() != 2 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs inputs X, slope and 1 output, got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    auto t = inputs[0]->getType();
    if (!(t == halide_type_of<float>() || t == halide_type_of<double>() || t == halide_type_of<int32_t>() ||
          t == halide_type_of<int64_t>())) {
        return ShapeUtils::error(op, NOT_SUPPORT, "X has type %s; supported: float32, float64, int32, int64",
                                 TensorUtils::typeName(t));
    }
    if (!(inputs[1]->getType() == t)) {
        return ShapeUtils::error(op, INVALID_VALUE, "slope has type %s but X has %s",
                                 TensorUtils::typeName(inputs[1]->getType()), TensorUtils::typeName(t));
    }
    auto x = TensorUtils::shape(inputs[0]);
    auto s = TensorUtils::shape(inputs[1]);
    if (!NormShapeUtils::broadcastsTo(s, x)) {
        return ShapeUtils::error(op, INVALID_VALUE, "slope %s does not broadcast to X %s",
                                 TensorUtils::shapeString(s).c_str(), TensorUtils::shapeString(x).c_str());
    }
    ShapeUtils::setOutputLike(outputs[0], inputs[0]);
    return NO_ERROR;
}

} // namespace MNN

MNN_REGISTER_SHAPE(PRelu, ShapeEntry{shapePRelu, nullptr, 0})
