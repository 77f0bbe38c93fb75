// Reference ConvInteger / QLinearConv: exact int32 accumulation of (x - x_zp) * (w - w_zp) through
// an im2col of the zero-point-shifted input (padding contributes 0, i.e. pads take the value x_zp)
// and a row-times-column product whose inner loop runs over output positions.
// QLinearConv then requantizes: y = saturate(round_half_even((acc + B) * (x_scale * w_scale / y_scale))
// + y_zp), the multiplier formed in float32 and applied in double (ONNX's reference).
#include <math.h>
#include <string.h>
#include "backend/cpu/CPUOpUtils.hpp"
#include "shape/ShapeUtils.hpp"
#include "shape/WindowGeometry.hpp"

namespace MNN {

static bool isSigned8(const Tensor* t) {
    return t->getType().code == halide_type_int;
}

class CPUConvInteger : public Execution {
public:
    CPUConvInteger(Backend* b, const ConvAttrs& attrs, bool qlinear) : Execution(b), mAttrs(attrs), mQLinear(qlinear) {}
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* x = inputs[0];
        const Tensor* w = inputs[mQLinear ? 3 : 1];
        std::string err;
        if (!resolveConv(mAttrs, false, TensorUtils::shape(x), TensorUtils::shape(w), nullptr, &mGeom, &mM, &err)) {
            return error(INVALID_VALUE, "%s: X %s, W %s: %s", name(), TensorUtils::shapeString(x).c_str(),
                         TensorUtils::shapeString(w).c_str(), err.c_str());
        }
        mN = x->length(0);
        mC = x->length(1);
        mGroup = mAttrs.group;
        mCg = mC / mGroup;
        mMg = mM / mGroup;
        mK = 1;
        for (int k : mGeom.kernel) {
            mK *= k;
        }
        mP = 1;
        for (int o : mGeom.output) {
            mP *= o;
        }
        mInPlane = 1;
        for (int i : mGeom.input) {
            mInPlane *= i;
        }
        // mIndex[k * P + o]: offset of the tap in one input plane, -1 in the padding
        const int nd = (int)mGeom.kernel.size();
        mIndex.assign((size_t)(mK * mP), -1);
        std::vector<int> kIdx(nd, 0), oIdx(nd, 0);
        for (int64_t k = 0; k < mK; ++k) {
            int64_t rest = k;
            for (int d = nd - 1; d >= 0; --d) {
                kIdx[d] = (int)(rest % mGeom.kernel[d]);
                rest /= mGeom.kernel[d];
            }
            for (int64_t o = 0; o < mP; ++o) {
                int64_t ro = o;
                for (int d = nd - 1; d >= 0; --d) {
                    oIdx[d] = (int)(ro % mGeom.output[d]);
                    ro /= mGeom.output[d];
                }
                int64_t off = 0;
                bool inside = true;
                for (int d = 0; d < nd && inside; ++d) {
                    const int64_t pos =
                        (int64_t)oIdx[d] * mGeom.strides[d] - mGeom.padBegin[d] + (int64_t)kIdx[d] * mGeom.dilations[d];
                    inside = pos >= 0 && pos < mGeom.input[d];
                    off = off * mGeom.input[d] + pos;
                }
                mIndex[(size_t)(k * mP + o)] = inside ? (int32_t)off : -1;
            }
        }
        mCol.resize((size_t)(mCg * mK * mP));
        mW.resize((size_t)(mM * mCg * mK));
        mWzp.resize((size_t)mM);
        if (mQLinear) {
            mAcc.resize((size_t)(mMg * mP));
            mMult.resize((size_t)mM);
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* x = inputs[0];
        const Tensor* w = inputs[mQLinear ? 3 : 1];
        const int xzpIdx = 2, wzpIdx = mQLinear ? 5 : 3;
        const int32_t xzp = ShapeUtils::has(inputs, xzpIdx) ? (int32_t)ShapeUtils::readInt(inputs[xzpIdx], 0) : 0;
        const Tensor* wzp = ShapeUtils::has(inputs, wzpIdx) ? inputs[wzpIdx] : nullptr;
        const int64_t wzpCount = wzp ? TensorUtils::elementCount(wzp) : 0;
        for (int m = 0; m < mM; ++m) {
            mWzp[m] = wzp ? (int32_t)ShapeUtils::readInt(wzp, wzpCount == 1 ? 0 : m) : 0;
        }
        if (isSigned8(w)) {
            shiftWeights(w->host<int8_t>());
        } else {
            shiftWeights(w->host<uint8_t>());
        }
        if (mQLinear) {
            const float xs = ShapeUtils::readFloat(inputs[1], 0);
            const float ys = ShapeUtils::readFloat(inputs[6], 0);
            const int64_t wsCount = TensorUtils::elementCount(inputs[4]);
            for (int m = 0; m < mM; ++m) {
                const float ws = ShapeUtils::readFloat(inputs[4], wsCount == 1 ? 0 : m);
                mMult[m] = xs * ws / ys;
            }
        }
        for (int n = 0; n < mN; ++n) {
            for (int g = 0; g < mGroup; ++g) {
                if (isSigned8(x)) {
                    im2col(x->host<int8_t>(), n, g, xzp);
                } else {
                    im2col(x->host<uint8_t>(), n, g, xzp);
                }
                if (!mQLinear) {
                    int32_t* y = outputs[0]->host<int32_t>() + ((int64_t)n * mM + (int64_t)g * mMg) * mP;
                    gemm(g, y);
                    continue;
                }
                gemm(g, mAcc.data());
                const Tensor* yt = outputs[0];
                if (isSigned8(yt)) {
                    requantize(inputs, n, g, yt->host<int8_t>(), -128, 127);
                } else {
                    requantize(inputs, n, g, yt->host<uint8_t>(), 0, 255);
                }
            }
        }
        return NO_ERROR;
    }

private:
    const char* name() const {
        return mQLinear ? "QLinearConv" : "ConvInteger";
    }
    template <typename T>
    void shiftWeights(const T* w) {
        const int64_t per = (int64_t)mCg * mK;
        for (int m = 0; m < mM; ++m) {
            const T* src = w + m * per;
            int32_t* dst = mW.data() + m * per;
            const int32_t z = mWzp[m];
            for (int64_t r = 0; r < per; ++r) {
                dst[r] = (int32_t)src[r] - z;
            }
        }
    }
    template <typename T>
    void im2col(const T* x, int n, int g, int32_t xzp) {
        for (int ci = 0; ci < mCg; ++ci) {
            const T* plane = x + ((int64_t)n * mC + (int64_t)g * mCg + ci) * mInPlane;
            for (int64_t k = 0; k < mK; ++k) {
                const int32_t* idx = mIndex.data() + k * mP;
                int32_t* col = mCol.data() + ((int64_t)ci * mK + k) * mP;
                for (int64_t o = 0; o < mP; ++o) {
                    col[o] = idx[o] < 0 ? 0 : (int32_t)plane[idx[o]] - xzp;
                }
            }
        }
    }
    /** y[mi][o] = sum_r w[g * Mg + mi][r] * col[r][o] for the group's Mg output channels */
    void gemm(int g, int32_t* y) {
        const int64_t per = (int64_t)mCg * mK;
        for (int mi = 0; mi < mMg; ++mi) {
            int32_t* row = y + (int64_t)mi * mP;
            ::memset(row, 0, sizeof(int32_t) * (size_t)mP);
            const int32_t* wr = mW.data() + ((int64_t)g * mMg + mi) * per;
            for (int64_t r = 0; r < per; ++r) {
                const int32_t wv = wr[r];
                if (wv == 0) {
                    continue;
                }
                const int32_t* col = mCol.data() + r * mP;
                for (int64_t o = 0; o < mP; ++o) {
                    row[o] += wv * col[o];
                }
            }
        }
    }
    template <typename T>
    void requantize(const std::vector<Tensor*>& inputs, int n, int g, T* y, int lo, int hi) {
        const Tensor* bias = ShapeUtils::has(inputs, 8) ? inputs[8] : nullptr;
        const double yzp = ShapeUtils::has(inputs, 7) ? (double)ShapeUtils::readInt(inputs[7], 0) : 0.0;
        for (int mi = 0; mi < mMg; ++mi) {
            const int m = g * mMg + mi;
            const int32_t b = bias ? bias->host<int32_t>()[m] : 0;
            const double mult = (double)mMult[m];
            const int32_t* acc = mAcc.data() + (int64_t)mi * mP;
            T* dst = y + ((int64_t)n * mM + m) * mP;
            for (int64_t o = 0; o < mP; ++o) {
                double v = nearbyint((double)(acc[o] + b) * mult) + yzp;
                v = v > (double)lo ? (v < (double)hi ? v : (double)hi) : (double)lo;
                dst[o] = (T)v;
            }
        }
    }

    ConvAttrs mAttrs;
    bool mQLinear;
    WindowGeometry mGeom;
    int mM = 0, mN = 0, mC = 0, mGroup = 1, mCg = 0, mMg = 0;
    int64_t mK = 1, mP = 1, mInPlane = 1;
    std::vector<int32_t> mIndex, mCol, mW, mWzp, mAcc;
    std::vector<float> mMult;
};

static Execution* createConvInteger(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                    Backend* backend) {
    ConvAttrs attrs;
    attrs.load(op->param_as_ConvParam());
    return new CPUConvInteger(backend, attrs, false);
}
static Execution* createQLinearConv(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                    Backend* backend) {
    ConvAttrs attrs;
    attrs.load(op->param_as_ConvParam());
    return new CPUConvInteger(backend, attrs, true);
}

}  // namespace MNN

MNN_REGISTER_CPU(ConvInteger, createConvInteger)
MNN_REGISTER_CPU(QLinearConv, createQLinearConv)
