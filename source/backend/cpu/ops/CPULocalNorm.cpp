// Reference LRN, LpNormalization and MeanVarianceNormalization.
// LRN: y = x / (bias + alpha / size * sum_{c' in [c - (size-1)/2, c + ceil((size-1)/2)]} x[c']^2)^beta.
// LpNormalization: y = x / ||x||_p along `axis` (p = 1 or 2); a zero vector gives zeros.
// MeanVarianceNormalization: y = (x - mean) / (sqrt(var) + 1e-9) over `axes` (ONNX's function body uses
// the fixed 1e-9; NormParam.epsilon is not used).
#include <math.h>
#include "backend/cpu/CPUOpUtils.hpp"
#include <algorithm>

namespace MNN {

static int64_t productOf(const std::vector<int>& v, size_t from, size_t to) {
    int64_t r = 1;
    for (size_t i = from; i < to; ++i) {
        r *= v[i];
    }
    return r;
}

class CPULRN : public Execution {
public:
    CPULRN(Backend* b, float alpha, float beta, float bias, int size)
        : Execution(b), mAlpha(alpha), mBeta(beta), mBias(bias), mSize(size) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto shape = TensorUtils::shape(inputs[0]);
        mBatch = shape[0];
        mChannels = shape[1];
        mSpatial = productOf(shape, 2, shape.size());
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const int64_t batch = mBatch;
        const int c = mChannels;
        const int64_t spatial = mSpatial;
        const float* x = inputs[0]->host<float>();
        float* y = outputs[0]->host<float>();
        const int before = (mSize - 1) / 2;
        const int after = mSize - 1 - before; // ceil((size - 1) / 2)
        for (int64_t n = 0; n < batch; ++n) {
            for (int ch = 0; ch < c; ++ch) {
                for (int64_t i = 0; i < spatial; ++i) {
                    double sq = 0.0;
                    for (int k = ch - before; k <= ch + after; ++k) {
                        if (k >= 0 && k < c) {
                            double v = x[(n * c + k) * spatial + i];
                            sq += v * v;
                        }
                    }
                    const int64_t idx = (n * c + ch) * spatial + i;
                    y[idx] = (float)(x[idx] / pow((double)mBias + (double)mAlpha / mSize * sq, (double)mBeta));
                }
            }
        }
        return NO_ERROR;
    }

private:
    float mAlpha, mBeta, mBias;
    int mSize;
    int64_t mBatch = 0, mSpatial = 0;
    int mChannels = 0;
};

class CPULpNormalization : public Execution {
public:
    CPULpNormalization(Backend* b, int axis, int p) : Execution(b), mAxis(axis), mP(p) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto shape = TensorUtils::shape(inputs[0]);
        const int rank = (int)shape.size();
        const int axis = mAxis < 0 ? mAxis + rank : mAxis;
        if (axis < 0 || axis >= rank) {
            return error(INVALID_VALUE, "LpNormalization: axis %d is out of range for rank %d", mAxis, rank);
        }
        mOuter = productOf(shape, 0, axis);
        mLen = shape[axis];
        mInner = productOf(shape, axis + 1, shape.size());
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const int64_t outer = mOuter, len = mLen, inner = mInner;
        const float* x = inputs[0]->host<float>();
        float* y = outputs[0]->host<float>();
        for (int64_t o = 0; o < outer; ++o) {
            for (int64_t i = 0; i < inner; ++i) {
                const int64_t base = o * len * inner + i;
                double acc = 0.0;
                for (int64_t k = 0; k < len; ++k) {
                    double v = x[base + k * inner];
                    acc += mP == 1 ? fabs(v) : v * v;
                }
                const double norm = mP == 1 ? acc : sqrt(acc);
                for (int64_t k = 0; k < len; ++k) {
                    y[base + k * inner] = norm == 0.0 ? 0.0f : (float)((double)x[base + k * inner] / norm);
                }
            }
        }
        return NO_ERROR;
    }

private:
    int mAxis;
    int mP;
    int64_t mOuter = 0, mLen = 0, mInner = 0;
};

class CPUMeanVarianceNorm : public Execution {
public:
    CPUMeanVarianceNorm(Backend* b, const std::vector<int>& axes) : Execution(b), mAxes(axes) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto shape = TensorUtils::shape(inputs[0]);
        const int rank = (int)shape.size();
        std::vector<bool> reduced(rank, false);
        for (auto a : mAxes) {
            int d = a < 0 ? a + rank : a;
            if (d < 0 || d >= rank) {
                return error(INVALID_VALUE, "MeanVarianceNormalization: axis %d is out of range for rank %d", a, rank);
            }
            reduced[d] = true;
        }
        // group index of every element: its index with the reduced dims dropped
        const int64_t total = productOf(shape, 0, shape.size());
        mGroupOf.assign((size_t)total, 0);
        int64_t groups = 1;
        for (int d = 0; d < rank; ++d) {
            if (!reduced[d]) {
                groups *= shape[d];
            }
        }
        for (int64_t f = 0; f < total; ++f) {
            int64_t rest = f, g = 0, mul = 1;
            for (int d = rank - 1; d >= 0; --d) {
                int64_t idx = rest % shape[d];
                rest /= shape[d];
                if (!reduced[d]) {
                    g += idx * mul;
                    mul *= shape[d];
                }
            }
            mGroupOf[(size_t)f] = g;
        }
        mSum.assign((size_t)groups, 0.0);
        mSq.assign((size_t)groups, 0.0);
        mCount.assign((size_t)groups, 0);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const float* x = inputs[0]->host<float>();
        float* y = outputs[0]->host<float>();
        const int64_t total = (int64_t)mGroupOf.size();
        std::fill(mSum.begin(), mSum.end(), 0.0);
        std::fill(mSq.begin(), mSq.end(), 0.0);
        std::fill(mCount.begin(), mCount.end(), 0);
        for (int64_t f = 0; f < total; ++f) {
            mSum[mGroupOf[f]] += x[f];
            mCount[mGroupOf[f]] += 1;
        }
        for (size_t g = 0; g < mSum.size(); ++g) {
            mSum[g] = mCount[g] > 0 ? mSum[g] / (double)mCount[g] : 0.0; // now the mean
        }
        for (int64_t f = 0; f < total; ++f) {
            double d = x[f] - mSum[mGroupOf[f]];
            mSq[mGroupOf[f]] += d * d;
        }
        for (int64_t f = 0; f < total; ++f) {
            const int64_t g = mGroupOf[f];
            const double stddev = sqrt(mSq[g] / (double)mCount[g]);
            y[f] = (float)(((double)x[f] - mSum[g]) / (stddev + 1e-9));
        }
        return NO_ERROR;
    }

private:
    std::vector<int> mAxes;
    std::vector<int64_t> mGroupOf;
    std::vector<double> mSum;
    std::vector<double> mSq;
    std::vector<int64_t> mCount;
};

static Execution* createLRN(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                            Backend* backend) {
    auto p = op->param_as_LrnParam();
    if (!p) {
        return new CPULRN(backend, 0.0001f, 0.75f, 1.0f, 1);
    }
    return new CPULRN(backend, p->alpha(), p->beta(), p->bias(), p->size());
}

static Execution* createLpNormalization(const std::vector<Tensor*>&, const std::vector<Tensor*>&,
                                        const Schema::Op* op, Backend* backend) {
    auto p = op->param_as_NormParam();
    return new CPULpNormalization(backend, p ? p->axis() : -1, p ? p->p() : 2);
}

static Execution* createMeanVarianceNorm(const std::vector<Tensor*>&, const std::vector<Tensor*>&,
                                         const Schema::Op* op, Backend* backend) {
    auto p = op->param_as_NormParam();
    std::vector<int> axes = {0, 2, 3};
    if (p && p->axes() && p->axes()->size() > 0) {
        axes.assign(p->axes()->begin(), p->axes()->end());
    }
    return new CPUMeanVarianceNorm(backend, axes);
}

} // namespace MNN

MNN_REGISTER_CPU(LRN, createLRN)
MNN_REGISTER_CPU(LpNormalization, createLpNormalization)
MNN_REGISTER_CPU(MeanVarianceNormalization, createMeanVarianceNorm)
