// MatMul (numpy matmul: 1-D operands promoted and their dim removed again, batch dims broadcast) and
// Gemm (Y = alpha * A' * B' + beta * C, A and B 2-D, C broadcast to [M, N]).
// Types: float32, float64, int32, int64, uint32, uint64 (A and B alike). An optional GemmParam on MatMul
// supplies only its fused activation.
#include "NormShapeUtils.hpp"
#include "ShapeUtils.hpp"

namespace MNN {

static bool supportedType(halide_type_t t) {
    return t == halide_type_of<float>() || t == halide_type_of<double>() || t == halide_type_of<int32_t>() ||
           t == halide_type_of<int64_t>() || t == halide_type_of<uint32_t>() || t == halide_type_of<uint64_t>();
}

static ErrorCode checkTypes(const Schema::Op* op, const std::vector<Tensor*>& inputs) {
    auto t = inputs[0]->getType();
    if (!supportedType(t)) {
        return ShapeUtils::error(op, NOT_SUPPORT, "A has type %s; supported: float32, float64, int32, int64, uint32, uint64",
                                 TensorUtils::typeName(t));
    }
    for (size_t i = 1; i < inputs.size(); ++i) {
        if (inputs[i] && !(inputs[i]->getType() == t)) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %d has type %s but A has %s", (int)i,
                                     TensorUtils::typeName(inputs[i]->getType()), TensorUtils::typeName(t));
        }
    }
    return NO_ERROR;
}

static ErrorCode shapeMatMul(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                             const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || inputs.size() != 2 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs inputs A, B and 1 output, got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    auto code = checkTypes(op, inputs);
    if (code != NO_ERROR) {
        return code;
    }
    auto a = TensorUtils::shape(inputs[0]);
    auto b = TensorUtils::shape(inputs[1]);
    if (a.empty() || b.empty()) {
        return ShapeUtils::error(op, INVALID_VALUE, "A %s and B %s must have rank >= 1",
                                 TensorUtils::shapeString(a).c_str(), TensorUtils::shapeString(b).c_str());
    }
    const bool aVec = a.size() == 1, bVec = b.size() == 1;
    std::vector<int> a2 = aVec ? std::vector<int>{1, a[0]} : a;
    std::vector<int> b2 = bVec ? std::vector<int>{b[0], 1} : b;
    const int k = a2.back();
    if (b2[b2.size() - 2] != k) {
        return ShapeUtils::error(op, INVALID_VALUE, "A %s and B %s: inner dims %d and %d differ",
                                 TensorUtils::shapeString(a).c_str(), TensorUtils::shapeString(b).c_str(), k,
                                 b2[b2.size() - 2]);
    }
    std::vector<int> batchA(a2.begin(), a2.end() - 2), batchB(b2.begin(), b2.end() - 2), batch;
    if (!ShapeUtils::broadcast(batchA, batchB, batch)) {
        return ShapeUtils::error(op, INVALID_VALUE, "batch dims of A %s and B %s do not broadcast",
                                 TensorUtils::shapeString(a).c_str(), TensorUtils::shapeString(b).c_str());
    }
    std::vector<int> out = batch;
    if (!aVec) {
        out.push_back(a2[a2.size() - 2]);
    }
    if (!bVec) {
        out.push_back(b2.back());
    }
    ShapeUtils::setOutput(outputs[0], out, inputs[0]->getType());
    return NO_ERROR;
}

static ErrorCode shapeGemm(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                           const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || inputs.size() > 3 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs inputs A, B, [C] and 1 output, got %d and %d",
                                 (int)inputs.size(), (int)outputs.size());
    }
    auto code = checkTypes(op, inputs);
    if (code != NO_ERROR) {
        return code;
    }
    auto param = op->param_as_GemmParam();
    const bool transA = param && param->transA();
    const bool transB = param && param->transB();
    auto a = TensorUtils::shape(inputs[0]);
    auto b = TensorUtils::shape(inputs[1]);
    if (a.size() != 2 || b.size() != 2) {
        return ShapeUtils::error(op, INVALID_VALUE, "A %s and B %s must be 2-D", TensorUtils::shapeString(a).c_str(),
                                 TensorUtils::shapeString(b).c_str());
    }
    const int m = transA ? a[1] : a[0];
    const int ka = transA ? a[0] : a[1];
    const int kb = transB ? b[1] : b[0];
    const int n = transB ? b[0] : b[1];
    if (ka != kb) {
        return ShapeUtils::error(op, INVALID_VALUE, "A %s (transA %d) and B %s (transB %d): inner dims %d and %d differ",
                                 TensorUtils::shapeString(a).c_str(), (int)transA, TensorUtils::shapeString(b).c_str(),
                                 (int)transB, ka, kb);
    }
    if (ShapeUtils::has(inputs, 2)) {
        auto c = TensorUtils::shape(inputs[2]);
        if (!NormShapeUtils::broadcastsTo(c, {m, n})) {
            return ShapeUtils::error(op, INVALID_VALUE, "C %s does not broadcast to [%d, %d]",
                                     TensorUtils::shapeString(c).c_str(), m, n);
        }
    }
    ShapeUtils::setOutput(outputs[0], {m, n}, inputs[0]->getType());
    return NO_ERROR;
}

// 2 * (output elements) * K
static double flopsMatMul(const Schema::Op*, const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
    return 2.0 * (double)TensorUtils::elementCount(outputs[0]) * (double)inputs[0]->length(inputs[0]->dimensions() - 1);
}

static double flopsGemm(const Schema::Op* op, const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
    auto param = op->param_as_GemmParam();
    const int k = (param && param->transA()) ? inputs[0]->length(0) : inputs[0]->length(1);
    return 2.0 * (double)TensorUtils::elementCount(outputs[0]) * (double)k;
}

} // namespace MNN

MNN_REGISTER_SHAPE(MatMul, ShapeEntry{shapeMatMul, flopsMatMul, 0})
MNN_REGISTER_SHAPE(Gemm, ShapeEntry{shapeGemm, flopsGemm, 0})
