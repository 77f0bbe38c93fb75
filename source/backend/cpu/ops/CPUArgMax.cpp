// Reference ArgMax / ArgMin. NaN counts as the extreme value (numpy's argmax / argmin), so the
// first NaN wins (the last one with selectLastIndex).
#include <math.h>
#include <type_traits>
#include "CPUTypeDispatch.hpp"
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

template <typename T>
static inline bool isNanValue(T v) {
    return v != v;
}

class CPUArgMax : public Execution {
public:
    CPUArgMax(Backend* b, int axis, bool selectLast, bool isMin)
        : Execution(b), mAxis(axis), mSelectLast(selectLast), mIsMin(isMin) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* in = inputs[0];
        const int rank = in->dimensions();
        const int axis = mAxis < 0 ? mAxis + rank : mAxis;
        mOuter = 1;
        mInner = 1;
        for (int i = 0; i < axis; ++i) {
            mOuter *= in->length(i);
        }
        for (int i = axis + 1; i < rank; ++i) {
            mInner *= in->length(i);
        }
        mN = (axis >= 0 && axis < rank) ? in->length(axis) : 1;
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* in = inputs[0];
        const int64_t outer = mOuter, inner = mInner, n = mN;
        int64_t* y = outputs[0]->host<int64_t>();
        const bool selectLast = mSelectLast, isMin = mIsMin;
        CPUUtils::dispatchType(in->getType(), [&](auto tag) {
            typedef typename decltype(tag)::type T;
            const T* x = in->host<T>();
            for (int64_t o = 0; o < outer; ++o) {
                for (int64_t i = 0; i < inner; ++i) {
                    const T* p = x + o * n * inner + i;
                    int64_t best = 0;
                    T b = p[0];
                    for (int64_t k = 1; k < n; ++k) {
                        T v = p[k * inner];
                        bool better = !isNanValue(b) && (isNanValue(v) || (isMin ? v < b : v > b));
                        bool same = (v == b) || (isNanValue(v) && isNanValue(b));
                        if (better || (selectLast && same)) {
                            best = k;
                            b = v;
                        }
                    }
                    y[o * inner + i] = best;
                }
            }
        });
        return NO_ERROR;
    }

private:
    int mAxis;
    int64_t mOuter = 0, mInner = 0, mN = 0;
    bool mSelectLast;
    bool mIsMin;
};

static Execution* createArgMax(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                               Backend* backend) {
    auto p = op->param_as_ArgParam();
    if (!p) {
        return new CPUArgMax(backend, 0, false, false);
    }
    return new CPUArgMax(backend, p->axis(), p->selectLastIndex(), p->isMin());
}
} // namespace MNN

MNN_REGISTER_CPU(ArgMax, createArgMax)
