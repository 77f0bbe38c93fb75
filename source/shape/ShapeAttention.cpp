// Attention(Q, K, V, attn_mask?, past_key?, past_value?, nonpad_kv_seqlen?) -> Y, present_key?,
// present_value?, qk_matmul_output? (ONNX Attention-23/24; AttentionParam).
#include "AttentionGeometry.hpp"

namespace MNN {
static ErrorCode shapeAttention(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                const std::vector<Tensor*>& outputs) {
    auto p = op->param_as_AttentionParam();
    if (outputs.empty() || outputs.size() > 4) {
        return ShapeUtils::error(op, INVALID_VALUE, "has %d outputs, expected 1..4", (int)outputs.size());
    }
    int qHeads = p ? p->qNumHeads() : 0, kvHeads = p ? p->kvNumHeads() : 0;
    if (p && (p->softcap() < 0.0f || p->qkMatmulOutputMode() < 0 || p->qkMatmulOutputMode() > 3)) {
        return ShapeUtils::error(op, INVALID_VALUE, "softcap %g must be >= 0 and qkMatmulOutputMode %d in 0..3",
                                 (double)p->softcap(), p->qkMatmulOutputMode());
    }
    AttentionGeometry g;
    std::string err;
    if (!attentionGeometry(inputs, qHeads, kvHeads, &g, &err)) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", err.c_str());
    }
    auto f = halide_type_of<float>();
    if (g.threeD) {
        ShapeUtils::setOutput(outputs[0], {g.B, g.Sq, g.Hq * g.Dv}, f);
    } else {
        ShapeUtils::setOutput(outputs[0], {g.B, g.Hq, g.Sq, g.Dv}, f);
    }
    if (outputs.size() > 1) {
        ShapeUtils::setOutput(outputs[1], {g.B, g.Hkv, g.T, g.D}, f);
    }
    if (outputs.size() > 2) {
        ShapeUtils::setOutput(outputs[2], {g.B, g.Hkv, g.T, g.Dv}, f);
    }
    if (outputs.size() > 3) {
        ShapeUtils::setOutput(outputs[3], {g.B, g.Hq, g.Sq, g.T}, f);
    }
    return NO_ERROR;
}

static double flopsAttention(const Schema::Op* op, const std::vector<Tensor*>& inputs, const std::vector<Tensor*>&) {
    auto p = op->param_as_AttentionParam();
    AttentionGeometry g;
    std::string err;
    if (!attentionGeometry(inputs, p ? p->qNumHeads() : 0, p ? p->kvNumHeads() : 0, &g, &err)) {
        return 0.0;
    }
    return 2.0 * g.B * g.Hq * g.Sq * (double)g.T * (g.D + g.Dv);
}
} // namespace MNN

MNN_REGISTER_SHAPE(Attention, ShapeEntry{shapeAttention, flopsAttention, 0})
