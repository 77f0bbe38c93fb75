// Convolution (ONNX Conv) and ConvTranspose: inputs X [N, C, spatial...], W, optional B [M].
// Conv: W [M, C/group, k...]; ConvTranspose: W [C, M/group, k...]. Output [N, M, out...] float32.
#include "ShapeUtils.hpp"
#include "WindowGeometry.hpp"

namespace MNN {

static ErrorCode shapeConvCommon(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                 const std::vector<Tensor*>& outputs, bool transpose) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || inputs.size() > 3 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs inputs X, W, [B] and 1 output, got %d inputs and %d outputs",
                                 (int)inputs.size(), (int)outputs.size());
    }
    const char* names[3] = {"X", "W", "B"};
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i] && !(inputs[i]->getType() == halide_type_of<float>())) {
            return ShapeUtils::error(op, NOT_SUPPORT, "input %s has type %s; only float32 is supported", names[i],
                                     TensorUtils::typeName(inputs[i]->getType()));
        }
    }
    ConvAttrs attrs;
    attrs.load(op->param_as_ConvParam());
    if ((int)attrs.activation < 0 || (int)attrs.activation > (int)Schema::FusedActivation::HARD_SWISH) {
        return ShapeUtils::error(op, NOT_SUPPORT, "unknown fused activation %d", (int)attrs.activation);
    }
    auto x = TensorUtils::shape(inputs[0]);
    auto w = TensorUtils::shape(inputs[1]);
    std::vector<int> b;
    if (ShapeUtils::has(inputs, 2)) {
        b = TensorUtils::shape(inputs[2]);
    }
    WindowGeometry g;
    int m = 0;
    std::string err;
    if (!resolveConv(attrs, transpose, x, w, ShapeUtils::has(inputs, 2) ? &b : nullptr, &g, &m, &err)) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", err.c_str());
    }
    std::vector<int> out = {x[0], m};
    out.insert(out.end(), g.output.begin(), g.output.end());
    ShapeUtils::setOutput(outputs[0], out, halide_type_of<float>());
    return NO_ERROR;
}

static ErrorCode shapeConvolution(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                  const std::vector<Tensor*>& outputs) {
    return shapeConvCommon(op, inputs, outputs, false);
}

static ErrorCode shapeConvTranspose(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                    const std::vector<Tensor*>& outputs) {
    return shapeConvCommon(op, inputs, outputs, true);
}

static double product(const std::vector<int>& v, size_t from) {
    double r = 1.0;
    for (size_t i = from; i < v.size(); ++i) {
        r *= (double)v[i];
    }
    return r;
}

// Conv: every output element takes C/group * prod(kernel) multiply-adds.
static double flopsConvolution(const Schema::Op*, const std::vector<Tensor*>& inputs,
                               const std::vector<Tensor*>& outputs) {
    auto w = TensorUtils::shape(inputs[1]);
    double perOutput = product(w, 1); // C/group * kernel
    return 2.0 * (double)TensorUtils::elementCount(outputs[0]) * perOutput;
}

// ConvTranspose: every input element is scattered through M/group * prod(kernel) multiply-adds.
static double flopsConvTranspose(const Schema::Op*, const std::vector<Tensor*>& inputs,
                                 const std::vector<Tensor*>&) {
    auto w = TensorUtils::shape(inputs[1]);
    double perInput = product(w, 1); // M/group * kernel
    return 2.0 * (double)TensorUtils::elementCount(inputs[0]) * perInput;
}

} // namespace MNN

MNN_REGISTER_SHAPE(Convolution, ShapeEntry{shapeConvolution, flopsConvolution, 0})
MNN_REGISTER_SHAPE(ConvTranspose, ShapeEntry{shapeConvTranspose, flopsConvTranspose, 0})
