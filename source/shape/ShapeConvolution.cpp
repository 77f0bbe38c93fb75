// Convolution (ONNX Conv) and ConvTranspose: inputs X [N, C, spatial...], W, optional B [M].
// Conv: W [M, C/group, k...]; ConvTranspose: W [C, M/group, k...]. Output [N, M, out...] float32.
// Convolution may take a fourth input S [N or 1, C, 1...] (X's rank): it convolves X * S, the input
// scaled per image and channel (the converter folds a squeeze-excite Mul into the convolution), and
// a fifth R of the output's shape: Y = act(conv + B + R), the activation after the sum (a residual
// Add, and the Relu after it, folded in).
#include "ShapeUtils.hpp"
#include "WindowGeometry.hpp"

namespace MNN {

static ErrorCode shapeConvCommon(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                 const std::vector<Tensor*>& outputs, bool transpose) {
    const size_t maxInputs = transpose ? 3 : 5;
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || inputs.size() > maxInputs ||
        outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE,
                                 "needs inputs X, W, [B]%s and 1 output, got %d inputs and %d outputs",
                                 transpose ? "" : ", [S], [R]", (int)inputs.size(), (int)outputs.size());
    }
    const char* names[5] = {"X", "W", "B", "S", "R"};
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
    if (ShapeUtils::has(inputs, 3)) {
        // S: one scale per image (or one for all) and input channel
        auto sc = TensorUtils::shape(inputs[3]);
        bool ok = sc.size() == x.size() && (sc[0] == 1 || sc[0] == x[0]) && sc[1] == x[1];
        for (size_t i = 2; ok && i < sc.size(); ++i) {
            ok = sc[i] == 1;
        }
        if (!ok) {
            return ShapeUtils::error(op, INVALID_VALUE, "input scale S %s does not fit X %s (needs [1 or N, C, 1...])",
                                     TensorUtils::shapeString(inputs[3]).c_str(),
                                     TensorUtils::shapeString(inputs[0]).c_str());
        }
    }
    std::vector<int> out = {x[0], m};
    out.insert(out.end(), g.output.begin(), g.output.end());
    if (ShapeUtils::has(inputs, 4) && TensorUtils::shape(inputs[4]) != out) {
        return ShapeUtils::error(op, INVALID_VALUE, "residual R %s does not have the output's shape %s",
                                 TensorUtils::shapeString(inputs[4]).c_str(), TensorUtils::shapeString(out).c_str());
    }
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
    double perOutput = product(w, 1);  // C/group * kernel
    return 2.0 * (double)TensorUtils::elementCount(outputs[0]) * perOutput;
}

// ConvTranspose: every input element is scattered through M/group * prod(kernel) multiply-adds.
static double flopsConvTranspose(const Schema::Op*, const std::vector<Tensor*>& inputs, const std::vector<Tensor*>&) {
    auto w = TensorUtils::shape(inputs[1]);
    double perInput = product(w, 1);  // M/group * kernel
    return 2.0 * (double)TensorUtils::elementCount(inputs[0]) * perInput;
}

}  // namespace MNN

MNN_REGISTER_SHAPE(Convolution, ShapeEntry{shapeConvolution, flopsConvolution, 0})
MNN_REGISTER_SHAPE(ConvTranspose, ShapeEntry{shapeConvTranspose, flopsConvTranspose, 0})
