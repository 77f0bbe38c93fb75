// Reference DynamicQuantizeLSTM (com.microsoft), computed the way ONNX Runtime documents it: X is
// quantized once to uint8 over the whole sequence (CPUDynamicQuant.hpp), X * W is an exact int32
// product scaled by x_scale * W_scale[column]; at every step the hidden state of all batch rows is
// quantized the same way and H * R added, scaled by h_scale * R_scale[column]; then the bias
// (Wb + Rb), clip, and the LSTM gate equations (gate order i, o, f, c; peepholes i, o, f) in float.
// sequence_lens: steps past a row's length leave Y zero and the row's state frozen (its frozen
// state still takes part in the step's quantization range).
#include <string.h>
#include "backend/cpu/CPUOpUtils.hpp"
#include "CPUDynamicQuant.hpp"
#include "shape/RnnCommon.hpp"

namespace MNN {

class CPUDynamicQuantizeLSTM : public Execution {
public:
    CPUDynamicQuantizeLSTM(Backend* b, const Schema::RnnParam* p) : Execution(b) {
        mDirection = p->direction();
        mNumDir = mDirection == Schema::RnnDirection::BIDIRECTIONAL ? 2 : 1;
        mClip = p->clip();
        mInputForget = p->inputForget();
        std::string err;
        mValid = rnnParseActivations(p, RnnKind::LSTM, mNumDir, &mActs, &err);
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (!mValid) {
            return error(INVALID_VALUE, "DynamicQuantizeLSTM: invalid activations");
        }
        const Tensor* X = inputs[0];
        mSeq = X->length(0);
        mBatch = X->length(1);
        mIn = X->length(2);
        mHidden = inputs[2]->length(1);
        const int64_t G = 4 * (int64_t)mHidden;
        mXq.resize((size_t)(mSeq * mBatch * mIn));
        mXW.resize((size_t)(mSeq * mBatch * G));
        mHq.resize((size_t)(mBatch * mHidden));
        mAcc.resize((size_t)G);
        mGates.resize((size_t)(mBatch * G));
        mH.resize((size_t)(mBatch * mHidden));
        mC.resize((size_t)(mBatch * mHidden));
        mBias.resize((size_t)G);
        mMultW.resize((size_t)G);
        mMultR.resize((size_t)G);
        mZeroW.resize((size_t)G);
        mZeroR.resize((size_t)G);
        mLen.resize((size_t)mBatch);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto has = [&](size_t i) { return ShapeUtils::has(inputs, i); };
        for (int b = 0; b < mBatch; ++b) {
            mLen[b] = mSeq;
            if (has(4)) {
                const int64_t l = ShapeUtils::readInt(inputs[4], b);
                if (l < 0 || l > mSeq) {
                    return error(INPUT_DATA_ERROR, "DynamicQuantizeLSTM: sequence length %lld outside [0, %d]",
                                 (long long)l, mSeq);
                }
                mLen[b] = (int)l;
            }
        }
        const int H = mHidden;
        const int64_t G = 4 * (int64_t)H;
        const float* x = inputs[0]->host<float>();
        const DynamicQuant xq = dynamicQuantParams(x, (int64_t)mSeq * mBatch * mIn);
        dynamicQuantize(x, (int64_t)mSeq * mBatch * mIn, xq, mXq.data());
        float* y = outputs[0]->host<float>();
        ::memset(y, 0, sizeof(float) * (size_t)TensorUtils::elementCount(outputs[0]));
        float* yh = outputs.size() > 1 ? outputs[1]->host<float>() : nullptr;
        float* yc = outputs.size() > 2 ? outputs[2]->host<float>() : nullptr;
        const bool signedW = inputs[1]->getType().code == halide_type_int;
        const bool signedR = inputs[2]->getType().code == halide_type_int;
        for (int d = 0; d < mNumDir; ++d) {
            const bool reverse = mDirection == Schema::RnnDirection::REVERSE || d == 1;
            loadColumnParams(inputs[8], inputs[9], d, xq.scale, mMultW.data(), mZeroW.data());
            // X * W for every (t, b) row at once
            for (int64_t r = 0; r < (int64_t)mSeq * mBatch; ++r) {
                const uint8_t* xr = mXq.data() + r * mIn;
                if (signedW) {
                    rowTimesMatrix(xr, xq.zeroPoint, inputs[1]->host<int8_t>() + (int64_t)d * mIn * G, mIn,
                                   mZeroW.data());
                } else {
                    rowTimesMatrix(xr, xq.zeroPoint, inputs[1]->host<uint8_t>() + (int64_t)d * mIn * G, mIn,
                                   mZeroW.data());
                }
                float* dst = mXW.data() + r * G;
                for (int64_t g = 0; g < G; ++g) {
                    dst[g] = (float)mAcc[g] * mMultW[g];
                }
            }
            const float* bias = has(3) ? inputs[3]->host<float>() + (int64_t)d * 2 * G : nullptr;
            for (int64_t g = 0; g < G; ++g) {
                mBias[g] = bias ? bias[g] + bias[G + g] : 0.0f;
            }
            const float* peep = has(7) ? inputs[7]->host<float>() + (int64_t)d * 3 * H : nullptr;
            for (int b = 0; b < mBatch; ++b) {
                for (int j = 0; j < H; ++j) {
                    const int64_t so = ((int64_t)d * mBatch + b) * H + j;
                    mH[(size_t)b * H + j] = has(5) ? inputs[5]->host<float>()[so] : 0.0f;
                    mC[(size_t)b * H + j] = has(6) ? inputs[6]->host<float>()[so] : 0.0f;
                }
            }
            const RnnAct* acts = mActs.data() + d * 3;
            for (int step = 0; step < mSeq; ++step) {
                // the step's hidden state of every row, quantized together
                const DynamicQuant hq = dynamicQuantParams(mH.data(), (int64_t)mBatch * H);
                dynamicQuantize(mH.data(), (int64_t)mBatch * H, hq, mHq.data());
                loadColumnParams(inputs[10], inputs[11], d, hq.scale, mMultR.data(), mZeroR.data());
                for (int b = 0; b < mBatch; ++b) {
                    if (step >= mLen[b]) {
                        continue;
                    }
                    const int t = reverse ? mLen[b] - 1 - step : step;
                    const uint8_t* hr = mHq.data() + (int64_t)b * H;
                    if (signedR) {
                        rowTimesMatrix(hr, hq.zeroPoint, inputs[2]->host<int8_t>() + (int64_t)d * H * G, H,
                                       mZeroR.data());
                    } else {
                        rowTimesMatrix(hr, hq.zeroPoint, inputs[2]->host<uint8_t>() + (int64_t)d * H * G, H,
                                       mZeroR.data());
                    }
                    const float* xw = mXW.data() + ((int64_t)t * mBatch + b) * G;
                    float* gates = mGates.data() + (int64_t)b * G;
                    for (int64_t g = 0; g < G; ++g) {
                        gates[g] = xw[g] + (float)mAcc[g] * mMultR[g];
                        gates[g] = gates[g] + mBias[g];
                    }
                }
                // the gates of all rows first: the next rows' products read the quantized old state
                for (int b = 0; b < mBatch; ++b) {
                    if (step >= mLen[b]) {
                        continue;
                    }
                    const int t = reverse ? mLen[b] - 1 - step : step;
                    cell(mGates.data() + (int64_t)b * G, peep, acts, mH.data() + (int64_t)b * H,
                         mC.data() + (int64_t)b * H);
                    ::memcpy(y + (((int64_t)t * mNumDir + d) * mBatch + b) * H, mH.data() + (int64_t)b * H,
                             sizeof(float) * (size_t)H);
                }
            }
            for (int b = 0; b < mBatch; ++b) {
                const int64_t so = ((int64_t)d * mBatch + b) * H;
                if (yh) {
                    ::memcpy(yh + so, mH.data() + (int64_t)b * H, sizeof(float) * (size_t)H);
                }
                if (yc) {
                    ::memcpy(yc + so, mC.data() + (int64_t)b * H, sizeof(float) * (size_t)H);
                }
            }
        }
        return NO_ERROR;
    }

private:
    /** multipliers scale * s[column] and zero points of direction d: per tensor [dirs] or [dirs, 4H] */
    void loadColumnParams(const Tensor* s, const Tensor* z, int d, float scale, float* mult, int32_t* zero) const {
        const int64_t G = 4 * (int64_t)mHidden;
        const bool perColumn = s->dimensions() == 2;
        for (int64_t g = 0; g < G; ++g) {
            const int64_t i = perColumn ? (int64_t)d * G + g : d;
            mult[g] = scale * ShapeUtils::readFloat(s, i);
            zero[g] = (int32_t)ShapeUtils::readInt(z, i);
        }
    }
    /** mAcc[g] = sum_k (q[k] - zq) * (w[k][g] - zero[g]), w [rows, 4H] */
    template <typename T>
    void rowTimesMatrix(const uint8_t* q, int zq, const T* w, int rows, const int32_t* zero) {
        const int64_t G = 4 * (int64_t)mHidden;
        ::memset(mAcc.data(), 0, sizeof(int32_t) * (size_t)G);
        int32_t* acc = mAcc.data();
        for (int k = 0; k < rows; ++k) {
            const int32_t v = (int32_t)q[k] - zq;
            if (v == 0) {
                continue;
            }
            const T* wr = w + (int64_t)k * G;
            for (int64_t g = 0; g < G; ++g) {
                acc[g] += v * ((int32_t)wr[g] - zero[g]);
            }
        }
    }
    inline float clip(float v) const {
        if (mClip > 0.0f) {
            return v < -mClip ? -mClip : (v > mClip ? mClip : v);
        }
        return v;
    }
    // gates i, o, f, c at offsets 0, H, 2H, 3H; peepholes i, o, f
    void cell(const float* gates, const float* peep, const RnnAct* acts, float* h, float* c) const {
        const int H = mHidden;
        for (int j = 0; j < H; ++j) {
            const float cPrev = c[j];
            float i = gates[j] + (peep ? peep[j] * cPrev : 0.0f);
            float f = gates[2 * H + j] + (peep ? peep[2 * H + j] * cPrev : 0.0f);
            i = rnnApply(acts[0], clip(i));
            f = mInputForget ? 1.0f - i : rnnApply(acts[0], clip(f));
            const float cc = rnnApply(acts[1], clip(gates[3 * H + j]));
            const float cNew = cPrev * f + i * cc;
            const float o = rnnApply(acts[0], clip(gates[H + j] + (peep ? peep[H + j] * cNew : 0.0f)));
            c[j] = cNew;
            h[j] = o * rnnApply(acts[2], cNew);
        }
    }

    Schema::RnnDirection mDirection = Schema::RnnDirection::FORWARD;
    int mNumDir = 1;
    float mClip = 0.0f;
    bool mInputForget = false;
    bool mValid = false;
    std::vector<RnnAct> mActs;
    int mSeq = 0, mBatch = 0, mIn = 0, mHidden = 0;
    std::vector<uint8_t> mXq, mHq;
    std::vector<int32_t> mAcc, mZeroW, mZeroR;
    std::vector<int> mLen;
    std::vector<float> mXW, mGates, mH, mC, mBias, mMultW, mMultR;
};

static Execution* createDynamicQuantizeLSTM(const std::vector<Tensor*>&, const std::vector<Tensor*>&,
                                            const Schema::Op* op, Backend* backend) {
    auto p = op->param_as_RnnParam();
    return p ? new CPUDynamicQuantizeLSTM(backend, p) : nullptr;
}

}  // namespace MNN

MNN_REGISTER_CPU(DynamicQuantizeLSTM, createDynamicQuantizeLSTM)
