// Softmax / LogSoftmax / Hardmax along `axis` (coerce2D: over the flattened dims [axis, rank), the
// opset < 13 form). Y has X's shape and type (float32 / float64).
#include "ShapeUtils.hpp"

namespace MNN {

static ErrorCode shapeSoftmax(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                              const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || inputs.size() != 1 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output, got %d and %d", (int)inputs.size(),
                                 (int)outputs.size());
    }
    auto t = inputs[0]->getType();
    if (!(t == halide_type_of<float>() || t == halide_type_of<double>())) {
        return ShapeUtils::error(op, NOT_SUPPORT, "input has type %s; supported: float32, float64",
                                 TensorUtils::typeName(t));
    }
    auto param = op->param_as_SoftmaxParam();
    int axis = param ? param->axis() : -1;
    if (param && param->mode() != Schema::SoftmaxMode::SOFTMAX && param->mode() != Schema::SoftmaxMode::LOG_SOFTMAX &&
        param->mode() != Schema::SoftmaxMode::HARDMAX) {
        return ShapeUtils::error(op, NOT_SUPPORT, "unknown mode %d", (int)param->mode());
    }
    const int rank = inputs[0]->dimensions();
    if (ShapeUtils::normalizeAxis(axis, rank) < 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "axis %d is out of range for input of rank %d", axis, rank);
    }
    ShapeUtils::setOutputLike(outputs[0], inputs[0]);
    return NO_ERROR;
}

} // namespace MNN

MNN_REGISTER_SHAPE(Softmax, ShapeEntry{shapeSoftmax, nullptr, 0})
