// Reference Unique (ONNX: sorted=1 ascending lexicographic slices, sorted=0 order of first occurrence)
// and Det (LU with partial pivoting, accumulated in double).
#include <math.h>
#include <string.h>
#include "backend/cpu/CPUOpUtils.hpp"
#include "shape/ShapeUtils.hpp"
#include "shape/UniqueCore.hpp"

namespace MNN {

class CPUUnique : public Execution {
public:
    CPUUnique(Backend* b, int axis, bool hasAxis, bool sorted)
        : Execution(b), mAxis(axis), mHasAxis(hasAxis), mSorted(sorted) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto in = TensorUtils::shape(inputs[0]);
        mOuter = 1;
        mInner = 1;
        mN = TensorUtils::elementCount(inputs[0]);
        if (mHasAxis) {
            const int a = ShapeUtils::normalizeAxis(mAxis, (int)in.size());
            if (a < 0) {
                return error(INVALID_VALUE, "Unique: axis %d out of range for rank %d", mAxis, (int)in.size());
            }
            mAxisNorm = a;
            for (int d = 0; d < a; ++d) {
                mOuter *= in[d];
            }
            mN = in[a];
            for (int d = a + 1; d < (int)in.size(); ++d) {
                mInner *= in[d];
            }
        }
        mElementSize = inputs[0]->getType().bytes();
        mPerm.assign(mN, 0);
        mGroupOf.assign(mN, 0);
        mNewId.assign(mN, 0);
        mFirst.assign(mN, 0);
        mCount.assign(mN, 0);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto x = inputs[0];
        int64_t groups = 0;
        UniqueCore::dispatch(x->getType(), x->host<void>(), [&](auto* data) {
            groups = UniqueCore::group(data, mOuter, mN, mInner, mPerm.data(), mGroupOf.data());
        });
        const int64_t want = mHasAxis ? outputs[0]->length(mAxisNorm) : outputs[0]->length(0);
        if (want != groups) {
            return error(INPUT_DATA_ERROR, "Unique: %lld unique values but the outputs were sized for %lld",
                         (long long)groups, (long long)want);
        }
        // new ids: sorted order, or order of first occurrence
        for (int64_t g = 0; g < groups; ++g) {
            mNewId[g] = -1;
            mCount[g] = 0;
        }
        int64_t next = 0;
        for (int64_t i = 0; i < mN; ++i) {
            const int64_t g = mGroupOf[i];
            if (mNewId[g] < 0) {
                mNewId[g] = mSorted ? g : next++;
                mFirst[mNewId[g]] = i;
            }
            mCount[mNewId[g]]++;
        }
        // Y: slice first[u] of x for every u
        const uint8_t* src = x->host<uint8_t>();
        uint8_t* dst = outputs[0]->host<uint8_t>();
        const int64_t row = mInner * mElementSize;
        for (int64_t o = 0; o < mOuter; ++o) {
            for (int64_t u = 0; u < groups; ++u) {
                ::memcpy(dst + (o * groups + u) * row, src + (o * mN + mFirst[u]) * row, (size_t)row);
            }
        }
        if (outputs.size() > 1 && outputs[1]) {
            int64_t* idx = outputs[1]->host<int64_t>();
            for (int64_t u = 0; u < groups; ++u) {
                idx[u] = mFirst[u];
            }
        }
        if (outputs.size() > 2 && outputs[2]) {
            int64_t* inv = outputs[2]->host<int64_t>();
            for (int64_t i = 0; i < mN; ++i) {
                inv[i] = mNewId[mGroupOf[i]];
            }
        }
        if (outputs.size() > 3 && outputs[3]) {
            int64_t* cnt = outputs[3]->host<int64_t>();
            for (int64_t u = 0; u < groups; ++u) {
                cnt[u] = mCount[u];
            }
        }
        return NO_ERROR;
    }

private:
    int mAxis;
    bool mHasAxis;
    bool mSorted;
    int mAxisNorm = 0;
    int64_t mOuter = 1, mN = 0, mInner = 1;
    int mElementSize = 1;
    std::vector<int64_t> mPerm, mGroupOf, mNewId, mFirst, mCount;
};

static Execution* createUnique(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                               Backend* backend) {
    auto p = op->param_as_AxisParam();
    const bool hasAxis = p && p->axes() && p->axes()->size() == 1;
    return new CPUUnique(backend, hasAxis ? p->axes()->Get(0) : 0, hasAxis, p ? !p->exclusive() : true);
}

class CPUDet : public Execution {
public:
    explicit CPUDet(Backend* b) : Execution(b) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto in = TensorUtils::shape(inputs[0]);
        const int r = (int)in.size();
        mM = in[r - 1];
        mBatch = 1;
        for (int d = 0; d < r - 2; ++d) {
            mBatch *= in[d];
        }
        mDouble = inputs[0]->getType().bits == 64;
        mScratch.assign((size_t)mM * mM, 0.0);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const int64_t mm = (int64_t)mM * mM;
        for (int64_t b = 0; b < mBatch; ++b) {
            for (int64_t i = 0; i < mm; ++i) {
                mScratch[i] = mDouble ? inputs[0]->host<double>()[b * mm + i]
                                      : (double)inputs[0]->host<float>()[b * mm + i];
            }
            const double d = luDeterminant(mScratch.data(), mM);
            if (mDouble) {
                outputs[0]->host<double>()[b] = d;
            } else {
                outputs[0]->host<float>()[b] = (float)d;
            }
        }
        return NO_ERROR;
    }

private:
    // Gaussian elimination with partial pivoting; det = sign * product of the pivots (1 for M = 0)
    static double luDeterminant(double* a, int m) {
        double det = 1.0;
        for (int k = 0; k < m; ++k) {
            int piv = k;
            double best = fabs(a[(int64_t)k * m + k]);
            for (int i = k + 1; i < m; ++i) {
                const double v = fabs(a[(int64_t)i * m + k]);
                if (v > best) {
                    best = v;
                    piv = i;
                }
            }
            if (best == 0.0) {
                return 0.0;
            }
            if (piv != k) {
                for (int j = 0; j < m; ++j) {
                    double t = a[(int64_t)k * m + j];
                    a[(int64_t)k * m + j] = a[(int64_t)piv * m + j];
                    a[(int64_t)piv * m + j] = t;
                }
                det = -det;
            }
            const double p = a[(int64_t)k * m + k];
            det *= p;
            for (int i = k + 1; i < m; ++i) {
                const double f = a[(int64_t)i * m + k] / p;
                if (f == 0.0) {
                    continue;
                }
                for (int j = k + 1; j < m; ++j) {
                    a[(int64_t)i * m + j] -= f * a[(int64_t)k * m + j];
                }
            }
        }
        return det;
    }
    int mM = 0;
    int64_t mBatch = 1;
    bool mDouble = false;
    std::vector<double> mScratch;
};

static Execution* createDet(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op*,
                            Backend* backend) {
    return new CPUDet(backend);
}
} // namespace MNN

MNN_REGISTER_CPU(Unique, createUnique)
MNN_REGISTER_CPU(Det, createDet)
