// Reference MaxUnpool: zero the output, then scatter X into the positions named by I: MaxPool's flat
// indices over the default unpooled shape, placed at the same coordinates of Y (which output_shape
// may make larger). An index outside the default shape is INPUT_DATA_ERROR.
#include <string.h>
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {
class CPUMaxUnpool : public Execution {
public:
    CPUMaxUnpool(Backend* b, const Schema::PoolParam* p) : Execution(b) {
        mKernel.assign(p->kernel()->begin(), p->kernel()->end());
        if (p->strides()) {
            mStrides.assign(p->strides()->begin(), p->strides()->end());
        }
        if (p->pads()) {
            mPads.assign(p->pads()->begin(), p->pads()->end());
        }
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto X = TensorUtils::shape(inputs[0]);
        const int n = (int)X.size() - 2;
        mDefault = X;
        for (int i = 0; i < n; ++i) {
            int64_t st = mStrides.empty() ? 1 : mStrides[i];
            int64_t pb = mPads.empty() ? 0 : mPads[i], pe = mPads.empty() ? 0 : mPads[i + n];
            mDefault[i + 2] = X[i + 2] == 0 ? 0 : (int)((X[i + 2] - 1) * st + mKernel[i] - pb - pe);
        }
        mDefaultTotal = 1;
        for (auto d : mDefault) {
            mDefaultTotal *= d;
        }
        mOutStrides = CPUUtils::strides(TensorUtils::shape(outputs[0]));
        if (mOutStrides.size() != mDefault.size()) {
            return error(INVALID_VALUE, "MaxUnpool: output rank %d differs from input rank %d", (int)mOutStrides.size(),
                         (int)mDefault.size());
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto X = inputs[0];
        auto I = inputs[1];
        auto Y = outputs[0];
        const int64_t n = TensorUtils::elementCount(X);
        const int64_t total = TensorUtils::elementCount(Y);
        const int rank = (int)mDefault.size();
        const int64_t defTotal = mDefaultTotal;
        const int64_t* outStrides = mOutStrides.data();
        const int bytes = X->getType().bytes();
        ::memset(Y->host<uint8_t>(), 0, (size_t)(total * bytes));
        const bool i64 = I->getType().bits == 64;
        for (int64_t k = 0; k < n; ++k) {
            int64_t idx = i64 ? I->host<int64_t>()[k] : (int64_t)I->host<int32_t>()[k];
            if (idx < 0 || idx >= defTotal) {
                return error(INPUT_DATA_ERROR, "MaxUnpool: index %lld outside the unpooled shape of %lld elements",
                             (long long)idx, (long long)defTotal);
            }
            // coordinates in the default shape -> offset in Y
            int64_t rest = idx, off = 0;
            for (int d = rank - 1; d >= 0; --d) {
                off += (rest % mDefault[d]) * outStrides[d];
                rest /= mDefault[d];
            }
            ::memcpy(Y->host<uint8_t>() + off * bytes, X->host<uint8_t>() + k * bytes, bytes);
        }
        return NO_ERROR;
    }

private:
    std::vector<int64_t> mKernel, mStrides, mPads;
    std::vector<int> mDefault;
    int64_t mDefaultTotal = 0;
    std::vector<int64_t> mOutStrides;
};

static Execution* createMaxUnpool(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                  Backend* backend) {
    auto p = op->param_as_PoolParam();
    return (p && p->kernel()) ? new CPUMaxUnpool(backend, p) : nullptr;
}
} // namespace MNN

MNN_REGISTER_CPU(MaxUnpool, createMaxUnpool)
