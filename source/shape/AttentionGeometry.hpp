// Attention (ONNX Attention-23/24) geometry shared by the shape function and the CPU kernel.
// Inputs: Q, K, V, attn_mask?, past_key?, past_value?, nonpad_kv_seqlen?.
#ifndef MNN_SHAPE_ATTENTIONGEOMETRY_HPP
#define MNN_SHAPE_ATTENTIONGEOMETRY_HPP

#include <string>
#include <vector>
#include "ShapeUtils.hpp"

namespace MNN {

struct AttentionGeometry {
    bool threeD = false;
    int B = 0, Hq = 0, Hkv = 0, Sq = 0, Skv = 0, D = 0, Dv = 0, P = 0, T = 0;
    /** attn_mask dims right-aligned to [B, Hq, Sq, maskLast] (1 where broadcast); maskLast <= T */
    std::vector<int> maskDims;
    bool maskBool = false;
};

inline bool attentionGeometry(const std::vector<Tensor*>& in, int qHeads, int kvHeads, AttentionGeometry* g,
                              std::string* err) {
    auto fail = [&](const std::string& m) {
        *err = m;
        return false;
    };
    if (!ShapeUtils::has(in, 0) || !ShapeUtils::has(in, 1) || !ShapeUtils::has(in, 2) || in.size() > 7) {
        return fail("needs Q, K, V and at most 7 inputs");
    }
    auto f = halide_type_of<float>();
    for (int i = 0; i < 3; ++i) {
        if (in[i]->getType() != f) {
            return fail("Q, K and V must be float32");
        }
    }
    auto Q = TensorUtils::shape(in[0]), K = TensorUtils::shape(in[1]), V = TensorUtils::shape(in[2]);
    auto str = [](const std::vector<int>& d) { return TensorUtils::shapeString(d); };
    if (Q.size() != K.size() || Q.size() != V.size() || (Q.size() != 3 && Q.size() != 4)) {
        return fail("Q " + str(Q) + ", K " + str(K) + ", V " + str(V) + " must all be 3-D or all 4-D");
    }
    g->threeD = Q.size() == 3;
    if (g->threeD) {
        if (qHeads <= 0 || kvHeads <= 0) {
            return fail("3-D inputs need qNumHeads and kvNumHeads");
        }
        if (Q[2] % qHeads != 0 || K[2] % kvHeads != 0 || V[2] % kvHeads != 0) {
            return fail("hidden sizes of Q " + str(Q) + ", K " + str(K) + ", V " + str(V) +
                        " are not multiples of the head counts");
        }
        g->B = Q[0];
        g->Sq = Q[1];
        g->Hq = qHeads;
        g->D = Q[2] / qHeads;
        g->Skv = K[1];
        g->Hkv = kvHeads;
        if (K[2] / kvHeads != g->D || K[0] != g->B || V[0] != g->B || V[1] != g->Skv) {
            return fail("K " + str(K) + " / V " + str(V) + " do not match Q " + str(Q));
        }
        g->Dv = V[2] / kvHeads;
    } else {
        g->B = Q[0];
        g->Hq = Q[1];
        g->Sq = Q[2];
        g->D = Q[3];
        g->Hkv = K[1];
        g->Skv = K[2];
        g->Dv = V[3];
        if (K[0] != g->B || K[3] != g->D || V[0] != g->B || V[1] != g->Hkv || V[2] != g->Skv) {
            return fail("K " + str(K) + " / V " + str(V) + " do not match Q " + str(Q));
        }
    }
    if (g->Hkv <= 0 || g->Hq % g->Hkv != 0) {
        return fail("q heads " + std::to_string(g->Hq) + " must be a multiple of kv heads " + std::to_string(g->Hkv));
    }
    const bool hasPK = ShapeUtils::has(in, 4), hasPV = ShapeUtils::has(in, 5);
    if (hasPK != hasPV) {
        return fail("past_key and past_value must be given together");
    }
    g->P = 0;
    if (hasPK) {
        auto PK = TensorUtils::shape(in[4]), PV = TensorUtils::shape(in[5]);
        if (in[4]->getType() != f || in[5]->getType() != f || PK.size() != 4 || PV.size() != 4 || PK[0] != g->B ||
            PK[1] != g->Hkv || PK[3] != g->D || PV[0] != g->B || PV[1] != g->Hkv || PV[2] != PK[2] || PV[3] != g->Dv) {
            return fail("past_key " + str(PK) + " / past_value " + str(PV) + " must be float [B, kv heads, P, head]");
        }
        g->P = PK[2];
    }
    g->T = g->P + g->Skv;
    g->maskDims.clear();
    if (ShapeUtils::has(in, 3)) {
        auto M = TensorUtils::shape(in[3]);
        auto t = in[3]->getType();
        g->maskBool = t.code == halide_type_uint && t.bits == 8;
        if (!g->maskBool && t != f) {
            return fail("attn_mask must be bool or float32");
        }
        if (M.empty() || M.size() > 4 || M.back() > g->T) {
            return fail("attn_mask " + str(M) + " must have rank 1..4 and last dim <= " + std::to_string(g->T));
        }
        std::vector<int> target = {g->B, g->Hq, g->Sq};
        g->maskDims.assign(4, 1);
        g->maskDims[3] = M.back();
        for (int k = 0; k + 1 < (int)M.size(); ++k) {
            int pos = 3 - ((int)M.size() - 1) + k;
            if (M[k] != 1 && M[k] != target[pos]) {
                return fail("attn_mask " + str(M) + " does not broadcast to [" + std::to_string(g->B) + ", " +
                            std::to_string(g->Hq) + ", " + std::to_string(g->Sq) + ", " + std::to_string(g->T) + "]");
            }
            g->maskDims[pos] = M[k];
        }
    }
    if (ShapeUtils::has(in, 6)) {
        auto N = TensorUtils::shape(in[6]);
        if (in[6]->getType().code != halide_type_int || N != std::vector<int>{g->B}) {
            return fail("nonpad_kv_seqlen " + str(N) + " must be int64 [B]");
        }
    }
    return true;
}

} // namespace MNN
#endif
