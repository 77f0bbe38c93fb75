// RotaryEmbedding(X, cos_cache, sin_cache, position_ids?) (ONNX RotaryEmbedding-23, AttentionParam:
// interleaved, rotaryEmbeddingDim, numHeads). X is [B, heads, S, head] or [B, S, hidden] (numHeads
// required); caches are [max_pos, rot/2] with position_ids [B, S], else [B, S, rot/2]. Y has X's shape.
#include "ShapeUtils.hpp"

namespace MNN {
static ErrorCode shapeRotary(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                             const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || !ShapeUtils::has(inputs, 2) ||
        inputs.size() > 4 || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs X, cos_cache, sin_cache (position_ids optional), 1 output");
    }
    auto p = op->param_as_AttentionParam();
    const int numHeads = p ? p->numHeads() : 0;
    const int rotAttr = p ? p->rotaryEmbeddingDim() : 0;
    auto f = halide_type_of<float>();
    for (int i = 0; i < 3; ++i) {
        if (inputs[i]->getType() != f) {
            return ShapeUtils::error(op, NOT_SUPPORT, "input %d has type %s, only float32 is supported", i,
                                     TensorUtils::typeName(inputs[i]->getType()));
        }
    }
    auto X = TensorUtils::shape(inputs[0]);
    int B, S, head;
    if (X.size() == 4) {
        B = X[0];
        S = X[2];
        head = X[3];
    } else if (X.size() == 3) {
        if (numHeads <= 0 || X[2] % numHeads != 0) {
            return ShapeUtils::error(op, INVALID_VALUE, "3-D X %s needs numHeads (%d) dividing the hidden size",
                                     TensorUtils::shapeString(X).c_str(), numHeads);
        }
        B = X[0];
        S = X[1];
        head = X[2] / numHeads;
    } else {
        return ShapeUtils::error(op, INVALID_VALUE, "X %s must be 3-D or 4-D", TensorUtils::shapeString(X).c_str());
    }
    const int rot = rotAttr > 0 ? rotAttr : head;
    if (rotAttr < 0 || rot > head || rot % 2 != 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "rotary dim %d must be even and at most the head size %d", rot, head);
    }
    auto C = TensorUtils::shape(inputs[1]);
    if (TensorUtils::shape(inputs[2]) != C) {
        return ShapeUtils::error(op, INVALID_VALUE, "cos_cache %s and sin_cache %s differ",
                                 TensorUtils::shapeString(C).c_str(), TensorUtils::shapeString(inputs[2]).c_str());
    }
    if (ShapeUtils::has(inputs, 3)) {
        auto P = TensorUtils::shape(inputs[3]);
        auto pt = inputs[3]->getType();
        if (pt.code != halide_type_int || P != std::vector<int>{B, S}) {
            return ShapeUtils::error(op, INVALID_VALUE, "position_ids %s must be int64 [%d, %d]",
                                     TensorUtils::shapeString(P).c_str(), B, S);
        }
        if (C.size() != 2 || C[1] != rot / 2) {
            return ShapeUtils::error(op, INVALID_VALUE, "cos_cache %s must be [max_position, %d]",
                                     TensorUtils::shapeString(C).c_str(), rot / 2);
        }
    } else if (C != std::vector<int>{B, S, rot / 2}) {
        return ShapeUtils::error(op, INVALID_VALUE, "cos_cache %s must be [%d, %d, %d] without position_ids",
                                 TensorUtils::shapeString(C).c_str(), B, S, rot / 2);
    }
    ShapeUtils::setOutputLike(outputs[0], inputs[0]);
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(RotaryEmbedding, ShapeEntry{shapeRotary, nullptr, 0})
