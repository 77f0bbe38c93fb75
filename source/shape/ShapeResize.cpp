// Resize(X, roi?, scales?, sizes?): output dims from scales (floor(in * roi extent * scale)) or sizes
// (with keep_aspect_ratio_policy); the values of roi, scales and sizes are read here.
#include "ResizeGeometry.hpp"

namespace MNN {
static ErrorCode shapeResize(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                             const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs input X and 1 output");
    }
    auto p = op->param_as_ResizeParam();
    if (!p) {
        return ShapeUtils::error(op, INVALID_VALUE, "missing ResizeParam");
    }
    ResizeConfig cfg;
    cfg.load(p);
    if ((int)cfg.mode > (int)Schema::ResizeMode::CUBIC || (int)cfg.coord > (int)Schema::CoordTransform::HALF_PIXEL_SYMMETRIC ||
        (int)cfg.nearest > (int)Schema::NearestMode::CEIL) {
        return ShapeUtils::error(op, INVALID_VALUE, "unknown mode %d, coordinate transform %d or nearest mode %d",
                                 (int)cfg.mode, (int)cfg.coord, (int)cfg.nearest);
    }
    auto t = inputs[0]->getType();
    if ((t.code != halide_type_float && t.code != halide_type_int && t.code != halide_type_uint) ||
        (t.code == halide_type_float && t.bits != 32 && t.bits != 64)) {
        return ShapeUtils::error(op, NOT_SUPPORT, "X has unsupported type %s", TensorUtils::typeName(t));
    }
    ResizeGeometry g;
    std::string err;
    if (!computeResizeGeometry(cfg, inputs, &g, &err)) {
        return ShapeUtils::error(op, INVALID_VALUE, "X %s: %s", TensorUtils::shapeString(inputs[0]).c_str(),
                                 err.c_str());
    }
    ShapeUtils::setOutput(outputs[0], g.outDims, t);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(Resize, ShapeEntry{shapeResize, nullptr, 0xEu})
