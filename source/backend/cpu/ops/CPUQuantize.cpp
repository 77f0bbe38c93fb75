// Reference QuantizeLinear / DequantizeLinear (ONNX): per-tensor, per-axis and blocked scales.
// Quantize: y = saturate(round_half_to_even(x / scale) + zero_point); Dequantize: y = (x - zp) * scale.
#include <math.h>
#include <limits>
#include "backend/cpu/CPUOpUtils.hpp"
#include "shape/ShapeUtils.hpp"

namespace MNN {

class CPUQuantBase : public Execution {
public:
    CPUQuantBase(Backend* b, int axis, int block) : Execution(b), mAxis(axis), mBlock(block) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>&) override {
        auto in = TensorUtils::shape(inputs[0]);
        auto sd = TensorUtils::shape(inputs[1]);
        const int64_t sn = TensorUtils::elementCount(inputs[1]);
        mCount = TensorUtils::elementCount(inputs[0]);
        mMode = 0;
        mOuter = 1;
        mLen = 1;
        mInner = 1;
        if (!(sd.empty() || (sd.size() == 1 && sn == 1 && mBlock == 0))) {
            const int a = ShapeUtils::normalizeAxis(mAxis, (int)in.size());
            if (a < 0) {
                return error(INVALID_VALUE, "QuantizeLinear: axis %d out of range for rank %d", mAxis, (int)in.size());
            }
            mMode = mBlock > 0 ? 2 : 1;
            for (int d = 0; d < a; ++d) {
                mOuter *= in[d];
            }
            mLen = in[a];
            for (int d = a + 1; d < (int)in.size(); ++d) {
                mInner *= in[d];
            }
            mBlocks = mBlock > 0 ? (mLen + mBlock - 1) / mBlock : mLen;
        }
        return NO_ERROR;
    }

protected:
    /** index into scale / zero point of element i of x */
    inline int64_t paramIndex(int64_t i) const {
        if (mMode == 0) {
            return 0;
        }
        const int64_t in = i % mInner;
        const int64_t a = (i / mInner) % mLen;
        if (mMode == 1) {
            return a;
        }
        const int64_t o = i / (mInner * mLen);
        return (o * mBlocks + a / mBlock) * mInner + in;
    }
    int mAxis;
    int mBlock;
    int mMode = 0;
    int64_t mCount = 0, mOuter = 1, mLen = 1, mInner = 1, mBlocks = 1;
};

class CPUQuantize : public CPUQuantBase {
public:
    using CPUQuantBase::CPUQuantBase;
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto t = outputs[0]->getType();
        if (t.code == halide_type_int && t.bits == 8) {
            run<int8_t>(inputs, outputs[0]);
        } else if (t.code == halide_type_uint && t.bits == 8) {
            run<uint8_t>(inputs, outputs[0]);
        } else if (t.code == halide_type_int && t.bits == 16) {
            run<int16_t>(inputs, outputs[0]);
        } else {
            run<uint16_t>(inputs, outputs[0]);
        }
        return NO_ERROR;
    }

private:
    template <typename Q>
    void run(const std::vector<Tensor*>& inputs, Tensor* out) {
        const float* x = inputs[0]->host<float>();
        const float* s = inputs[1]->host<float>();
        const Q* z = ShapeUtils::has(inputs, 2) ? inputs[2]->host<Q>() : nullptr;
        Q* y = out->host<Q>();
        const double lo = (double)std::numeric_limits<Q>::lowest();
        const double hi = (double)std::numeric_limits<Q>::max();
        for (int64_t i = 0; i < mCount; ++i) {
            const int64_t k = paramIndex(i);
            // nearbyint rounds half to even in the default rounding mode
            double v = (double)nearbyintf(x[i] / s[k]) + (z ? (double)z[k] : 0.0);
            if (v != v) {
                v = 0.0;
            }
            v = v < lo ? lo : (v > hi ? hi : v);
            y[i] = (Q)v;
        }
    }
};

class CPUDequantize : public CPUQuantBase {
public:
    using CPUQuantBase::CPUQuantBase;
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto t = inputs[0]->getType();
        if (t.code == halide_type_int && t.bits == 8) {
            run<int8_t>(inputs, outputs[0]);
        } else if (t.code == halide_type_uint && t.bits == 8) {
            run<uint8_t>(inputs, outputs[0]);
        } else if (t.code == halide_type_int && t.bits == 16) {
            run<int16_t>(inputs, outputs[0]);
        } else if (t.code == halide_type_uint && t.bits == 16) {
            run<uint16_t>(inputs, outputs[0]);
        } else {
            run<int32_t>(inputs, outputs[0]);
        }
        return NO_ERROR;
    }

private:
    template <typename Q>
    void run(const std::vector<Tensor*>& inputs, Tensor* out) {
        const Q* x = inputs[0]->host<Q>();
        const float* s = inputs[1]->host<float>();
        const Q* z = ShapeUtils::has(inputs, 2) ? inputs[2]->host<Q>() : nullptr;
        float* y = out->host<float>();
        for (int64_t i = 0; i < mCount; ++i) {
            const int64_t k = paramIndex(i);
            const int64_t d = (int64_t)x[i] - (z ? (int64_t)z[k] : 0);
            y[i] = (float)d * s[k];
        }
    }
};

static Execution* createQuantize(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                 Backend* backend) {
    auto p = op->param_as_QuantParam();
    return new CPUQuantize(backend, p ? p->axis() : 1, p ? p->blockSize() : 0);
}
static Execution* createDequantize(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                   Backend* backend) {
    auto p = op->param_as_QuantParam();
    return new CPUDequantize(backend, p ? p->axis() : 1, p ? p->blockSize() : 0);
}
} // namespace MNN

MNN_REGISTER_CPU(QuantizeLinear, createQuantize)
MNN_REGISTER_CPU(DequantizeLinear, createDequantize)
