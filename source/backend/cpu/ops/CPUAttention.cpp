// Reference Attention (ONNX Attention-23/24): scores = scale * Q K^T over past + current keys, then
// softcap (before the bias, as ONNX's current reference does so masked scores stay -inf), plus the
// bias (bool mask: false -> -inf; float mask added; mask columns past its last dim -> -inf; causal:
// key j > query i + offset -> -inf with offset = past length, or nonpad_kv_seqlen[b] - Sq without a
// past; keys at or past nonpad_kv_seqlen[b] -> -inf), softmax, times V. Grouped heads: q head h uses
// kv head h / (Hq / Hkv). A row with every key masked gives zeros.
// qk_matmul_output (as ONNX's node tests of onnx 1.23 define it): mode 0 scaled Q K^T, 1 after softcap,
// 2 after softcap and bias, 3 the softmax.
#include <math.h>
#include <string.h>
#include "backend/cpu/CPUOpUtils.hpp"
#include "shape/AttentionGeometry.hpp"

namespace MNN {
class CPUAttention : public Execution {
public:
    CPUAttention(Backend* b, const Schema::AttentionParam* p) : Execution(b) {
        if (p) {
            mCausal = p->isCausal();
            mQHeads = p->qNumHeads();
            mKvHeads = p->kvNumHeads();
            mScale = p->scale();
            mSoftcap = p->softcap();
            mQkMode = p->qkMatmulOutputMode();
        }
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        std::string err;
        if (!attentionGeometry(inputs, mQHeads, mKvHeads, &mG, &err)) {
            return error(INVALID_VALUE, "Attention: %s", err.c_str());
        }
        mScores.resize(mG.T);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const auto& g = mG;
        const float* q = inputs[0]->host<float>();
        const float* k = inputs[1]->host<float>();
        const float* v = inputs[2]->host<float>();
        const float* pk = g.P > 0 ? inputs[4]->host<float>() : nullptr;
        const float* pv = g.P > 0 ? inputs[5]->host<float>() : nullptr;
        const bool hasMask = ShapeUtils::has(inputs, 3);
        const bool hasNonpad = ShapeUtils::has(inputs, 6);
        const Tensor* nonpadT = hasNonpad ? inputs[6] : nullptr;
        auto nonpadAt = [&](int b) { return ShapeUtils::readInt(nonpadT, b); };
        if (hasNonpad) {
            const int64_t count = TensorUtils::elementCount(nonpadT);
            for (int64_t i = 0; i < count; ++i) {
                const int64_t n = ShapeUtils::readInt(nonpadT, i);
                if (n < 0 || n > g.T) {
                    return error(INPUT_DATA_ERROR, "Attention: nonpad_kv_seqlen %lld outside [0, %d]", (long long)n,
                                 g.T);
                }
            }
        }
        const double scale = mScale != 0.0f ? (double)mScale : 1.0 / sqrt((double)g.D);
        int64_t ms[4] = {0, 0, 0, 0};
        if (hasMask) {
            int64_t s = 1;
            for (int d = 3; d >= 0; --d) {
                ms[d] = g.maskDims[d] == 1 && d < 3 ? 0 : s;
                s *= g.maskDims[d];
            }
        }
        auto kAt = [&](int b, int hk, int j) -> const float* {
            if (j < g.P) {
                return pk + (((int64_t)b * g.Hkv + hk) * g.P + j) * g.D;
            }
            int jj = j - g.P;
            return k + (g.threeD ? (((int64_t)b * g.Skv + jj) * g.Hkv + hk) * g.D
                                 : (((int64_t)b * g.Hkv + hk) * g.Skv + jj) * g.D);
        };
        auto vAt = [&](int b, int hk, int j) -> const float* {
            if (j < g.P) {
                return pv + (((int64_t)b * g.Hkv + hk) * g.P + j) * g.Dv;
            }
            int jj = j - g.P;
            return v + (g.threeD ? (((int64_t)b * g.Skv + jj) * g.Hkv + hk) * g.Dv
                                 : (((int64_t)b * g.Hkv + hk) * g.Skv + jj) * g.Dv);
        };
        float* y = outputs[0]->host<float>();
        float* qk = outputs.size() > 3 ? outputs[3]->host<float>() : nullptr;
        const int group = g.Hq / g.Hkv;
        for (int b = 0; b < g.B; ++b) {
            const int64_t nonpadB = hasNonpad ? nonpadAt(b) : 0;
            int64_t offset = g.P;
            if (g.P == 0 && hasNonpad) {
                offset = nonpadB - g.Sq;
            }
            for (int h = 0; h < g.Hq; ++h) {
                const int hk = h / group;
                for (int i = 0; i < g.Sq; ++i) {
                    const float* qi = q + (g.threeD ? (((int64_t)b * g.Sq + i) * g.Hq + h) * g.D
                                                    : (((int64_t)b * g.Hq + h) * g.Sq + i) * g.D);
                    float* qkRow = qk ? qk + (((int64_t)b * g.Hq + h) * g.Sq + i) * g.T : nullptr;
                    double maxv = -INFINITY;
                    for (int j = 0; j < g.T; ++j) {
                        const float* kj = kAt(b, hk, j);
                        double s = 0.0;
                        for (int d = 0; d < g.D; ++d) {
                            s += (double)qi[d] * kj[d];
                        }
                        s *= scale;
                        if (qkRow && mQkMode == 0) {
                            qkRow[j] = (float)s;
                        }
                        if (mSoftcap > 0.0f) {
                            s = mSoftcap * tanh(s / mSoftcap);
                        }
                        if (qkRow && mQkMode == 1) {
                            qkRow[j] = (float)s;
                        }
                        if (hasMask) {
                            if (j >= g.maskDims[3]) {
                                s = -INFINITY;
                            } else {
                                int64_t mi = b * ms[0] + h * ms[1] + i * ms[2] + j;
                                if (g.maskBool) {
                                    s = inputs[3]->host<uint8_t>()[mi] ? s : -INFINITY;
                                } else {
                                    s += inputs[3]->host<float>()[mi];
                                }
                            }
                        }
                        if ((mCausal && j > i + offset) || (hasNonpad && j >= nonpadB)) {
                            s = -INFINITY;
                        }
                        if (qkRow && mQkMode == 2) {
                            qkRow[j] = (float)s;
                        }
                        mScores[j] = s;
                        maxv = s > maxv ? s : maxv;
                    }
                    double sum = 0.0;
                    for (int j = 0; j < g.T; ++j) {
                        mScores[j] = maxv == -INFINITY ? 0.0 : exp(mScores[j] - maxv);
                        sum += mScores[j];
                    }
                    for (int j = 0; j < g.T; ++j) {
                        mScores[j] = sum > 0.0 ? mScores[j] / sum : 0.0;
                        if (qkRow && mQkMode == 3) {
                            qkRow[j] = (float)mScores[j];
                        }
                    }
                    float* yo = y + (g.threeD ? (((int64_t)b * g.Sq + i) * g.Hq + h) * g.Dv
                                              : (((int64_t)b * g.Hq + h) * g.Sq + i) * g.Dv);
                    for (int e = 0; e < g.Dv; ++e) {
                        double acc = 0.0;
                        for (int j = 0; j < g.T; ++j) {
                            acc += mScores[j] * vAt(b, hk, j)[e];
                        }
                        yo[e] = (float)acc;
                    }
                }
            }
        }
        // present_key / present_value: past followed by the current keys / values, [B, Hkv, T, D]
        for (int which = 1; which <= 2 && which < (int)outputs.size(); ++which) {
            const int dim = which == 1 ? g.D : g.Dv;
            float* out = outputs[which]->host<float>();
            for (int b = 0; b < g.B; ++b) {
                for (int hk = 0; hk < g.Hkv; ++hk) {
                    for (int j = 0; j < g.T; ++j) {
                        const float* src = which == 1 ? kAt(b, hk, j) : vAt(b, hk, j);
                        ::memcpy(out + (((int64_t)b * g.Hkv + hk) * g.T + j) * dim, src, sizeof(float) * dim);
                    }
                }
            }
        }
        return NO_ERROR;
    }

private:
    bool mCausal = false;
    int mQHeads = 0, mKvHeads = 0;
    float mScale = 0.0f, mSoftcap = 0.0f;
    int mQkMode = 0;
    AttentionGeometry mG;
    std::vector<double> mScores;
};

static Execution* createAttention(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                  Backend* backend) {
    return new CPUAttention(backend, op->param_as_AttentionParam());
}
} // namespace MNN

MNN_REGISTER_CPU(Attention, createAttention)
