// PointwiseDepthwise (X, W1, [B1], W2, [B2]): a 1x1 convolution to E channels then a depthwise
// convolution over them (the converter fuses the pair of an inverted residual block). Output Y
// [N, E, OH, OW] float32, OH / OW from the depthwise window; an optional second output M [N, E, 1, 1]
// is Y's mean over its plane (a GlobalAveragePool of Y, fused by the converter: a squeeze-excite
// block's squeeze, computed while Y's rows are in cache).
#include "ShapeUtils.hpp"
#include "WindowGeometry.hpp"

namespace MNN {

static ErrorCode shapePointwiseDepthwise(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                         const std::vector<Tensor*>& outputs) {
    if (inputs.size() < 4 || inputs.size() > 5 || !ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) ||
        !ShapeUtils::has(inputs, 3) || outputs.empty() || outputs.size() > 2) {
        return ShapeUtils::error(op, INVALID_VALUE,
                                 "needs inputs X, W1, [B1], W2, [B2] and outputs Y, [M], got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    const char* names[5] = {"X", "W1", "B1", "W2", "B2"};
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i] && !(inputs[i]->getType() == halide_type_of<float>())) {
            return ShapeUtils::error(op, NOT_SUPPORT, "input %s has type %s; only float32 is supported", names[i],
                                     TensorUtils::typeName(inputs[i]->getType()));
        }
    }
    auto p = op->param_as_PointwiseDepthwiseParam();
    if (!p || !p->pointwise() || !p->depthwise()) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs a PointwiseDepthwiseParam with both ConvParams");
    }
    ConvAttrs pw, dw;
    pw.load(p->pointwise());
    dw.load(p->depthwise());
    for (auto* a : {&pw, &dw}) {
        if ((int)a->activation < 0 || (int)a->activation > (int)Schema::FusedActivation::HARD_SWISH) {
            return ShapeUtils::error(op, NOT_SUPPORT, "unknown fused activation %d", (int)a->activation);
        }
    }
    std::vector<int> b1, b2;
    if (ShapeUtils::has(inputs, 2)) {
        b1 = TensorUtils::shape(inputs[2]);
    }
    if (ShapeUtils::has(inputs, 4)) {
        b2 = TensorUtils::shape(inputs[4]);
    }
    auto x = TensorUtils::shape(inputs[0]);
    WindowGeometry g1, g2;
    int e = 0;
    std::string err;
    if (!resolvePointwiseDepthwise(pw, dw, x, TensorUtils::shape(inputs[1]), ShapeUtils::has(inputs, 2) ? &b1 : nullptr,
                                   TensorUtils::shape(inputs[3]), ShapeUtils::has(inputs, 4) ? &b2 : nullptr, &g1, &g2,
                                   &e, &err)) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", err.c_str());
    }
    ShapeUtils::setOutput(outputs[0], {x[0], e, g2.output[0], g2.output[1]}, halide_type_of<float>());
    if (outputs.size() > 1) {
        ShapeUtils::setOutput(outputs[1], {x[0], e, 1, 1}, halide_type_of<float>());
    }
    return NO_ERROR;
}

// pointwise: C multiply-adds per mid element; depthwise: kh * kw per output element
static double flopsPointwiseDepthwise(const Schema::Op*, const std::vector<Tensor*>& inputs,
                                      const std::vector<Tensor*>& outputs) {
    const double x = (double)TensorUtils::elementCount(inputs[0]);
    const double e = (double)inputs[1]->length(0);
    const double taps = (double)inputs[3]->length(2) * inputs[3]->length(3);
    return 2.0 * x * e + 2.0 * (double)TensorUtils::elementCount(outputs[0]) * taps;
}

}  // namespace MNN

MNN_REGISTER_SHAPE(PointwiseDepthwise, ShapeEntry{shapePointwiseDepthwise, flopsPointwiseDepthwise, 0})
