// RoiAlign(X [N, C, H, W], rois [R, 4], batch_indices [R]) -> Y [R, C, outputHeight, outputWidth].
#include "ShapeUtils.hpp"

namespace MNN {
static ErrorCode shapeRoiAlign(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                               const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || !ShapeUtils::has(inputs, 2) ||
        outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs inputs X, rois, batch_indices and 1 output");
    }
    auto p = op->param_as_RoiAlignParam();
    if (!p) {
        return ShapeUtils::error(op, INVALID_VALUE, "missing RoiAlignParam");
    }
    if (p->mode() != 0 && p->mode() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "mode %d is not 0 (max) or 1 (avg)", p->mode());
    }
    if (p->outputHeight() <= 0 || p->outputWidth() <= 0 || p->samplingRatio() < 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "output size %dx%d must be positive, sampling ratio %d >= 0",
                                 p->outputHeight(), p->outputWidth(), p->samplingRatio());
    }
    auto f = halide_type_of<float>();
    auto bt = inputs[2]->getType();
    if (inputs[0]->getType() != f || inputs[1]->getType() != f || bt.code != halide_type_int ||
        (bt.bits != 32 && bt.bits != 64)) {
        return ShapeUtils::error(op, NOT_SUPPORT, "X and rois must be float32 and batch_indices int64 / int32");
    }
    auto X = TensorUtils::shape(inputs[0]);
    auto R = TensorUtils::shape(inputs[1]);
    auto B = TensorUtils::shape(inputs[2]);
    if (X.size() != 4 || R.size() != 2 || R[1] != 4 || B.size() != 1 || B[0] != R[0]) {
        return ShapeUtils::error(op, INVALID_VALUE, "X %s, rois %s, batch_indices %s: expected 4-D, [R, 4], [R]",
                                 TensorUtils::shapeString(X).c_str(), TensorUtils::shapeString(R).c_str(),
                                 TensorUtils::shapeString(B).c_str());
    }
    ShapeUtils::setOutput(outputs[0], {R[0], X[1], p->outputHeight(), p->outputWidth()}, f);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(RoiAlign, ShapeEntry{shapeRoiAlign, nullptr, 0})
