// ConvolutionPool (X, W, [B]): a 2-D Convolution, its fused activation, then a 2-D Max / Average
// Pooling over its output (the converter fuses a convolution whose output only the pooling reads).
// Output [N, M, PH, PW] float32, PH / PW from the pooling window over the convolution's output.
#include "ShapeUtils.hpp"
#include "WindowGeometry.hpp"

namespace MNN {

static ErrorCode shapeConvolutionPool(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                      const std::vector<Tensor*>& outputs) {
    if (inputs.size() < 2 || inputs.size() > 3 || !ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) ||
        outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs inputs X, W, [B] and 1 output, got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    const char* names[3] = {"X", "W", "B"};
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i] && !(inputs[i]->getType() == halide_type_of<float>())) {
            return ShapeUtils::error(op, NOT_SUPPORT, "input %s has type %s; only float32 is supported", names[i],
                                     TensorUtils::typeName(inputs[i]->getType()));
        }
    }
    auto p = op->param_as_ConvolutionPoolParam();
    if (!p || !p->conv() || !p->pool()) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs a ConvolutionPoolParam with its ConvParam and PoolParam");
    }
    ConvAttrs conv;
    PoolAttrs pool;
    conv.load(p->conv());
    pool.load(p->pool());
    if ((int)conv.activation < 0 || (int)conv.activation > (int)Schema::FusedActivation::HARD_SWISH) {
        return ShapeUtils::error(op, NOT_SUPPORT, "unknown fused activation %d", (int)conv.activation);
    }
    std::vector<int> b;
    if (ShapeUtils::has(inputs, 2)) {
        b = TensorUtils::shape(inputs[2]);
    }
    auto x = TensorUtils::shape(inputs[0]);
    WindowGeometry cg, pg;
    int m = 0;
    std::string err;
    if (!resolveConvolutionPool(conv, pool, x, TensorUtils::shape(inputs[1]), ShapeUtils::has(inputs, 2) ? &b : nullptr,
                                &cg, &pg, &m, &err)) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", err.c_str());
    }
    ShapeUtils::setOutput(outputs[0], {x[0], m, pg.output[0], pg.output[1]}, halide_type_of<float>());
    return NO_ERROR;
}

// the convolution's: C/group * kernel multiply-adds per element of its [N, M, OH, OW] output
static double flopsConvolutionPool(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                   const std::vector<Tensor*>& outputs) {
    auto p = op->param_as_ConvolutionPoolParam();
    if (!p || !p->conv() || inputs.size() < 2 || !inputs[0] || !inputs[1] || inputs[1]->dimensions() != 4) {
        return 0.0;
    }
    ConvAttrs conv;
    conv.load(p->conv());
    WindowGeometry g;
    int m = 0;
    std::string err;
    if (!resolveConv(conv, false, TensorUtils::shape(inputs[0]), TensorUtils::shape(inputs[1]), nullptr, &g, &m,
                     &err)) {
        return 0.0;
    }
    const double perOutput = (double)inputs[1]->length(1) * inputs[1]->length(2) * inputs[1]->length(3);
    double mid = (double)inputs[0]->length(0) * m;
    for (int o : g.output) {
        mid *= (double)o;
    }
    (void)outputs;
    return 2.0 * mid * perOutput;
}

}  // namespace MNN

MNN_REGISTER_SHAPE(ConvolutionPool, ShapeEntry{shapeConvolutionPool, flopsConvolutionPool, 0})
