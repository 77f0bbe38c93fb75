// Reference MatMulInteger / QLinearMatMul: for every output matrix, rows of int32 sums
// acc[i][j] = sum_k (a[i][k] - a_zp) * (b[k][j] - b_zp), the inner loop over the columns j (B read
// row by row, its zero points a vector over j). QLinearMatMul then requantizes:
// y = saturate(round_half_even(acc * (a_scale * b_scale / y_scale)) + y_zp), the multiplier formed in
// float32 and applied in double (ONNX's reference).
#include <math.h>
#include <string.h>
#include "backend/cpu/CPUOpUtils.hpp"
#include "shape/ShapeUtils.hpp"

namespace MNN {

class CPUMatMulInteger : public Execution {
public:
    CPUMatMulInteger(Backend* b, bool qlinear) : Execution(b), mQLinear(qlinear) {}
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* a = inputs[0];
        const Tensor* b = inputs[mQLinear ? 3 : 1];
        auto ad = TensorUtils::shape(a);
        auto bd = TensorUtils::shape(b);
        if (ad.empty() || bd.empty()) {
            return error(INVALID_VALUE, "%s: A %s and B %s must have rank >= 1", name(),
                         TensorUtils::shapeString(ad).c_str(), TensorUtils::shapeString(bd).c_str());
        }
        auto a2 = ad.size() == 1 ? std::vector<int>{1, ad[0]} : ad;
        auto b2 = bd.size() == 1 ? std::vector<int>{bd[0], 1} : bd;
        mM = a2[a2.size() - 2];
        mK = a2.back();
        mN = b2.back();
        std::vector<int> batchA(a2.begin(), a2.end() - 2), batchB(b2.begin(), b2.end() - 2), batch;
        if (b2[b2.size() - 2] != mK || !ShapeUtils::broadcast(batchA, batchB, batch)) {
            return error(INVALID_VALUE, "%s: A %s and B %s do not multiply", name(),
                         TensorUtils::shapeString(ad).c_str(), TensorUtils::shapeString(bd).c_str());
        }
        // the flat batch index of A and of B for every output matrix
        int64_t count = 1;
        for (int d : batch) {
            count *= d;
        }
        mBatchA.assign((size_t)count, 0);
        mBatchB.assign((size_t)count, 0);
        const int rank = (int)batch.size();
        for (int64_t o = 0; o < count; ++o) {
            int64_t rest = o, ia = 0, ib = 0, sa = 1, sb = 1;
            for (int d = rank - 1; d >= 0; --d) {
                const int64_t idx = rest % batch[d];
                rest /= batch[d];
                const int da = d - (rank - (int)batchA.size()), db = d - (rank - (int)batchB.size());
                if (da >= 0) {
                    ia += (batchA[da] == 1 ? 0 : idx) * sa;
                    sa *= batchA[da];
                }
                if (db >= 0) {
                    ib += (batchB[db] == 1 ? 0 : idx) * sb;
                    sb *= batchB[db];
                }
            }
            mBatchA[o] = ia;
            mBatchB[o] = ib;
        }
        mAcc.resize((size_t)mN);
        mZeroB.resize((size_t)mN);
        if (mQLinear) {
            mScaleB.resize((size_t)mN);
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* a = inputs[0];
        const Tensor* b = inputs[mQLinear ? 3 : 1];
        const bool sa = a->getType().code == halide_type_int, sb = b->getType().code == halide_type_int;
        if (sa && sb) {
            run<int8_t, int8_t>(inputs, outputs[0]);
        } else if (sa) {
            run<int8_t, uint8_t>(inputs, outputs[0]);
        } else if (sb) {
            run<uint8_t, int8_t>(inputs, outputs[0]);
        } else {
            run<uint8_t, uint8_t>(inputs, outputs[0]);
        }
        return NO_ERROR;
    }

private:
    const char* name() const {
        return mQLinear ? "QLinearMatMul" : "MatMulInteger";
    }
    /** element of a per-tensor / per-index / full parameter: index i of matrix `batch` (count per matrix) */
    static int64_t paramIndex(const Tensor* t, int64_t batch, int64_t i, int64_t count) {
        const int64_t n = TensorUtils::elementCount(t);
        if (n == 1) {
            return 0;
        }
        return n == count ? i : batch * count + i;
    }
    template <typename TA, typename TB>
    void run(const std::vector<Tensor*>& inputs, Tensor* out) {
        const int ib = mQLinear ? 3 : 1;
        const int iza = 2, izb = mQLinear ? 5 : 3;
        const TA* a = inputs[0]->host<TA>();
        const TB* b = inputs[ib]->host<TB>();
        const Tensor* za = ShapeUtils::has(inputs, iza) ? inputs[iza] : nullptr;
        const Tensor* zb = ShapeUtils::has(inputs, izb) ? inputs[izb] : nullptr;
        const int64_t batches = (int64_t)mBatchA.size();
        for (int64_t o = 0; o < batches; ++o) {
            const TA* am = a + mBatchA[o] * mM * mK;
            const TB* bm = b + mBatchB[o] * mK * mN;
            for (int64_t j = 0; j < mN; ++j) {
                mZeroB[j] = zb ? (int32_t)ShapeUtils::readInt(zb, paramIndex(zb, mBatchB[o], j, mN)) : 0;
                if (mQLinear) {
                    mScaleB[j] = ShapeUtils::readFloat(inputs[4], paramIndex(inputs[4], 0, j, mN));
                }
            }
            for (int64_t i = 0; i < mM; ++i) {
                int32_t* acc = mQLinear ? mAcc.data() : out->host<int32_t>() + (o * mM + i) * mN;
                ::memset(acc, 0, sizeof(int32_t) * (size_t)mN);
                const int32_t zai = za ? (int32_t)ShapeUtils::readInt(za, paramIndex(za, mBatchA[o], i, mM)) : 0;
                const TA* arow = am + i * mK;
                for (int64_t k = 0; k < mK; ++k) {
                    const int32_t av = (int32_t)arow[k] - zai;
                    if (av == 0) {
                        continue;
                    }
                    const TB* brow = bm + k * mN;
                    const int32_t* zbv = mZeroB.data();
                    for (int64_t j = 0; j < mN; ++j) {
                        acc[j] += av * ((int32_t)brow[j] - zbv[j]);
                    }
                }
                if (mQLinear) {
                    if (out->getType().code == halide_type_int) {
                        requantizeRow(inputs, i, out->host<int8_t>() + (o * mM + i) * mN, -128, 127);
                    } else {
                        requantizeRow(inputs, i, out->host<uint8_t>() + (o * mM + i) * mN, 0, 255);
                    }
                }
            }
        }
    }
    template <typename T>
    void requantizeRow(const std::vector<Tensor*>& inputs, int64_t i, T* y, int lo, int hi) {
        const float as = ShapeUtils::readFloat(inputs[1], paramIndex(inputs[1], 0, i, mM));
        const float ys = ShapeUtils::readFloat(inputs[6], paramIndex(inputs[6], 0, i, mM));
        const double yzp = (double)ShapeUtils::readInt(inputs[7], paramIndex(inputs[7], 0, i, mM));
        for (int64_t j = 0; j < mN; ++j) {
            const float mult = as * mScaleB[j] / ys;
            double v = nearbyint((double)mAcc[j] * (double)mult) + yzp;
            v = v > (double)lo ? (v < (double)hi ? v : (double)hi) : (double)lo;
            y[j] = (T)v;
        }
    }

    bool mQLinear;
    int64_t mM = 0, mK = 0, mN = 0;
    std::vector<int64_t> mBatchA, mBatchB;
    std::vector<int32_t> mAcc, mZeroB;
    std::vector<float> mScaleB;
};

static Execution* createMatMulInteger(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op*,
                                      Backend* backend) {
    return new CPUMatMulInteger(backend, false);
}
static Execution* createQLinearMatMul(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op*,
                                      Backend* backend) {
    return new CPUMatMulInteger(backend, true);
}

}  // namespace MNN

MNN_REGISTER_CPU(MatMulInteger, createMatMulInteger)
MNN_REGISTER_CPU(QLinearMatMul, createQLinearMatMul)
