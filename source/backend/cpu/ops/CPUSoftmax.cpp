// Reference Softmax / LogSoftmax / Hardmax. The reduced block is X's dim `axis` (or, with coerce2D,
// the flattened dims [axis, rank)). Softmax: exp(x - max) / sum; LogSoftmax: x - max - log(sum);
// Hardmax: 1 at the first maximum, 0 elsewhere.
#include <math.h>
#include "CPUElementwiseFast.hpp"
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

class CPUSoftmax : public Execution {
public:
    CPUSoftmax(Backend* b, int axis, Schema::SoftmaxMode mode, bool coerce2D)
        : Execution(b), mAxis(axis), mMode(mode), mCoerce2D(coerce2D) {}
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (!softmaxExtents(TensorUtils::shape(inputs[0]), mAxis, mCoerce2D, &mOuter, &mLen, &mInner)) {
            return error(INVALID_VALUE, "axis %d is out of range for rank %d", mAxis, inputs[0]->dimensions());
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (inputs[0]->getType() == halide_type_of<double>()) {
            run<double>(inputs[0], outputs[0]);
        } else {
            run<float>(inputs[0], outputs[0]);
        }
        return NO_ERROR;
    }

private:
    template <typename T>
    void run(const Tensor* input, Tensor* output) {
        const T* x = input->host<T>();
        T* y = output->host<T>();
        for (int64_t o = 0; o < mOuter; ++o) {
            for (int64_t i = 0; i < mInner; ++i) {
                const int64_t base = o * mLen * mInner + i;
                if (mLen == 0) {
                    continue;
                }
                double maxV = x[base];
                int64_t maxAt = 0;
                for (int64_t k = 1; k < mLen; ++k) {
                    if ((double)x[base + k * mInner] > maxV) {
                        maxV = x[base + k * mInner];
                        maxAt = k;
                    }
                }
                if (mMode == Schema::SoftmaxMode::HARDMAX) {
                    for (int64_t k = 0; k < mLen; ++k) {
                        y[base + k * mInner] = k == maxAt ? (T)1 : (T)0;
                    }
                    continue;
                }
                double sum = 0.0;
                for (int64_t k = 0; k < mLen; ++k) {
                    sum += exp((double)x[base + k * mInner] - maxV);
                }
                for (int64_t k = 0; k < mLen; ++k) {
                    const double shifted = (double)x[base + k * mInner] - maxV;
                    y[base + k * mInner] =
                        (T)(mMode == Schema::SoftmaxMode::LOG_SOFTMAX ? shifted - log(sum) : exp(shifted) / sum);
                }
            }
        }
    }

    int mAxis;
    Schema::SoftmaxMode mMode;
    bool mCoerce2D;
    int64_t mOuter = 0, mLen = 0, mInner = 0;
};

static Execution* createSoftmax(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>&, const Schema::Op* op,
                                Backend* backend) {
    auto p = op->param_as_SoftmaxParam();
    const int axis = p ? p->axis() : -1;
    const auto mode = p ? p->mode() : Schema::SoftmaxMode::SOFTMAX;
    const bool coerce2D = p ? p->coerce2D() : false;
    if (auto fast = createFastSoftmax(inputs, axis, (int)mode, coerce2D, backend)) {
        return fast;
    }
    return new CPUSoftmax(backend, axis, mode, coerce2D);
}

}  // namespace MNN

MNN_REGISTER_CPU(Softmax, createSoftmax)
