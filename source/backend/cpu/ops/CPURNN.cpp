// Reference LSTM / GRU / RNN (ONNX equations, gate orders LSTM i,o,f,c; GRU z,r,h). Each batch row is
// run step by step per direction; steps past a row's sequence length leave Y zero and the state frozen.
// clip bounds every gate pre-activation to [-clip, clip] (0 = no clip).
#include <string.h>
#include "backend/cpu/CPUOpUtils.hpp"
#include "shape/RnnCommon.hpp"

namespace MNN {

class CPURNN : public Execution {
public:
    CPURNN(Backend* b, RnnKind kind, const Schema::RnnParam* p) : Execution(b), mKind(kind) {
        mHidden = p->hiddenSize();
        mDirection = p->direction();
        mNumDir = mDirection == Schema::RnnDirection::BIDIRECTIONAL ? 2 : 1;
        mClip = p->clip();
        mInputForget = p->inputForget();
        mLinearBeforeReset = p->linearBeforeReset();
        mLayout = p->layout();
        std::string err;
        mValid = rnnParseActivations(p, kind, mNumDir, &mActs, &err);
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (!mValid) {
            return error(INVALID_VALUE, "%s: invalid activations", kindName());
        }
        auto R = TensorUtils::shape(inputs[2]);
        mHidden = R[2];
        const int G = rnnGateCount(mKind);
        mXW.resize((size_t)G * mHidden);
        mHR.resize((size_t)G * mHidden);
        mH.resize(mHidden);
        mC.resize(mHidden);
        mTmp.resize(mHidden);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* X = inputs[0];
        const int seq = mLayout == 0 ? X->length(0) : X->length(1);
        const int batch = mLayout == 0 ? X->length(1) : X->length(0);
        const int in = X->length(2);
        const int H = mHidden;
        const int G = rnnGateCount(mKind);
        auto has = [&](size_t i) { return ShapeUtils::has(inputs, i); };
        const Tensor* lens = has(4) && TensorUtils::elementCount(inputs[4]) > 0 ? inputs[4] : nullptr;
        if (lens) {
            const int64_t count = TensorUtils::elementCount(lens);
            for (int64_t i = 0; i < count; ++i) {
                const int64_t l = ShapeUtils::readInt(lens, i);
                if (l < 0 || l > seq) {
                    return error(INPUT_DATA_ERROR, "%s: sequence length %lld outside [0, %d]", kindName(), (long long)l,
                                 seq);
                }
            }
        }
        const float* x = inputs[0]->host<float>();
        const float* w = inputs[1]->host<float>();
        const float* r = inputs[2]->host<float>();
        const float* bias = has(3) ? inputs[3]->host<float>() : nullptr;
        const float* h0 = has(5) ? inputs[5]->host<float>() : nullptr;
        const float* c0 = (mKind == RnnKind::LSTM && has(6)) ? inputs[6]->host<float>() : nullptr;
        const float* peep = (mKind == RnnKind::LSTM && has(7)) ? inputs[7]->host<float>() : nullptr;
        float* y = outputs[0]->host<float>();
        float* yh = outputs.size() > 1 ? outputs[1]->host<float>() : nullptr;
        float* yc = outputs.size() > 2 ? outputs[2]->host<float>() : nullptr;
        ::memset(y, 0, sizeof(float) * (size_t)TensorUtils::elementCount(outputs[0]));
        auto xAt = [&](int t, int b) {
            return x + (mLayout == 0 ? ((int64_t)t * batch + b) : ((int64_t)b * seq + t)) * in;
        };
        auto yAt = [&](int t, int d, int b) {
            return y + (mLayout == 0 ? (((int64_t)t * mNumDir + d) * batch + b) : (((int64_t)b * seq + t) * mNumDir + d)) * H;
        };
        auto stateOffset = [&](int d, int b) {
            return (mLayout == 0 ? ((int64_t)d * batch + b) : ((int64_t)b * mNumDir + d)) * H;
        };
        const int per = rnnActivationCount(mKind);
        for (int d = 0; d < mNumDir; ++d) {
            const bool reverse = mDirection == Schema::RnnDirection::REVERSE || d == 1;
            const float* wd = w + (int64_t)d * G * H * in;
            const float* rd = r + (int64_t)d * G * H * H;
            const float* wb = bias ? bias + (int64_t)d * 2 * G * H : nullptr;
            const float* rb = bias ? wb + G * H : nullptr;
            const float* pd = peep ? peep + (int64_t)d * 3 * H : nullptr;
            const RnnAct* acts = mActs.data() + d * per;
            for (int b = 0; b < batch; ++b) {
                const int len = lens ? (int)ShapeUtils::readInt(lens, b) : seq;
                const int64_t so = stateOffset(d, b);
                for (int j = 0; j < H; ++j) {
                    mH[j] = h0 ? h0[so + j] : 0.0f;
                    mC[j] = c0 ? c0[so + j] : 0.0f;
                }
                for (int step = 0; step < len; ++step) {
                    const int t = reverse ? len - 1 - step : step;
                    const float* xt = xAt(t, b);
                    // mXW = W x + Wb, mHR = R h + Rb (all gates)
                    for (int g = 0; g < G * H; ++g) {
                        float s = wb ? wb[g] : 0.0f;
                        const float* row = wd + (int64_t)g * in;
                        for (int k = 0; k < in; ++k) {
                            s += row[k] * xt[k];
                        }
                        mXW[g] = s;
                        float u = rb ? rb[g] : 0.0f;
                        const float* rrow = rd + (int64_t)g * H;
                        for (int k = 0; k < H; ++k) {
                            u += rrow[k] * mH[k];
                        }
                        mHR[g] = u;
                    }
                    if (mKind == RnnKind::LSTM) {
                        stepLSTM(acts, pd, H);
                    } else if (mKind == RnnKind::GRU) {
                        stepGRU(acts, rd, rb, H);
                    } else {
                        for (int j = 0; j < H; ++j) {
                            mH[j] = rnnApply(acts[0], clip(mXW[j] + mHR[j]));
                        }
                    }
                    ::memcpy(yAt(t, d, b), mH.data(), sizeof(float) * H);
                }
                if (yh) {
                    ::memcpy(yh + so, mH.data(), sizeof(float) * H);
                }
                if (yc) {
                    ::memcpy(yc + so, mC.data(), sizeof(float) * H);
                }
            }
        }
        return NO_ERROR;
    }

private:
    const char* kindName() const {
        return mKind == RnnKind::LSTM ? "LSTM" : (mKind == RnnKind::GRU ? "GRU" : "RNN");
    }
    inline float clip(float v) const {
        if (mClip > 0.0f) {
            return v < -mClip ? -mClip : (v > mClip ? mClip : v);
        }
        return v;
    }
    // gates i, o, f, c at offsets 0, H, 2H, 3H; peepholes i, o, f
    void stepLSTM(const RnnAct* acts, const float* pd, int H) {
        for (int j = 0; j < H; ++j) {
            const float cPrev = mC[j];
            float i = mXW[j] + mHR[j] + (pd ? pd[j] * cPrev : 0.0f);
            float f = mXW[2 * H + j] + mHR[2 * H + j] + (pd ? pd[2 * H + j] * cPrev : 0.0f);
            float cc = mXW[3 * H + j] + mHR[3 * H + j];
            i = rnnApply(acts[0], clip(i));
            f = mInputForget ? 1.0f - i : rnnApply(acts[0], clip(f));
            cc = rnnApply(acts[1], clip(cc));
            const float c = f * cPrev + i * cc;
            float o = mXW[H + j] + mHR[H + j] + (pd ? pd[H + j] * c : 0.0f);
            o = rnnApply(acts[0], clip(o));
            mC[j] = c;
            mTmp[j] = o * rnnApply(acts[2], c);
        }
        ::memcpy(mH.data(), mTmp.data(), sizeof(float) * H);
    }
    // gates z, r, h at offsets 0, H, 2H
    void stepGRU(const RnnAct* acts, const float* rd, const float* rb, int H) {
        // z and r first (they use the previous h)
        for (int j = 0; j < H; ++j) {
            mXW[j] = rnnApply(acts[0], clip(mXW[j] + mHR[j]));
            mXW[H + j] = rnnApply(acts[0], clip(mXW[H + j] + mHR[H + j]));
        }
        if (!mLinearBeforeReset) {
            // (r * h) R_h^T + Rb_h
            for (int j = 0; j < H; ++j) {
                mC[j] = mXW[H + j] * mH[j];
            }
            for (int j = 0; j < H; ++j) {
                const float* row = rd + (int64_t)(2 * H + j) * H;
                float s = rb ? rb[2 * H + j] : 0.0f;
                for (int k = 0; k < H; ++k) {
                    s += row[k] * mC[k];
                }
                mTmp[j] = s;
            }
        } else {
            for (int j = 0; j < H; ++j) {
                mTmp[j] = mXW[H + j] * mHR[2 * H + j];
            }
        }
        for (int j = 0; j < H; ++j) {
            const float hh = rnnApply(acts[1], clip(mXW[2 * H + j] + mTmp[j]));
            const float z = mXW[j];
            mH[j] = (1.0f - z) * hh + z * mH[j];
        }
        for (int j = 0; j < H; ++j) {
            mC[j] = 0.0f;
        }
    }

    RnnKind mKind;
    int mHidden = 0;
    Schema::RnnDirection mDirection = Schema::RnnDirection::FORWARD;
    int mNumDir = 1;
    float mClip = 0.0f;
    bool mInputForget = false;
    bool mLinearBeforeReset = false;
    int mLayout = 0;
    bool mValid = false;
    std::vector<RnnAct> mActs;
    std::vector<float> mXW, mHR, mH, mC, mTmp;
};

static Execution* createLSTM(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                             Backend* backend) {
    auto p = op->param_as_RnnParam();
    return p ? new CPURNN(backend, RnnKind::LSTM, p) : nullptr;
}
static Execution* createGRU(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                            Backend* backend) {
    auto p = op->param_as_RnnParam();
    return p ? new CPURNN(backend, RnnKind::GRU, p) : nullptr;
}
static Execution* createRNN(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                            Backend* backend) {
    auto p = op->param_as_RnnParam();
    return p ? new CPURNN(backend, RnnKind::RNN, p) : nullptr;
}
} // namespace MNN

MNN_REGISTER_CPU(LSTM, createLSTM)
MNN_REGISTER_CPU(GRU, createGRU)
MNN_REGISTER_CPU(RNN, createRNN)
