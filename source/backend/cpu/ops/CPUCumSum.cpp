// Reference CumSum: running sums in the element type along the axis (AxisParam.exclusive starts
// from 0 and leaves out the element itself; reverse sums from the end). Integer sums wrap.
#include <type_traits>
#include "CPUTypeDispatch.hpp"
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

template <typename T>
static inline T addWrap(T a, T b) {
    if constexpr (std::is_integral<T>::value) {
        typedef typename std::make_unsigned<T>::type U;
        return (T)((U)a + (U)b);
    } else {
        return a + b;
    }
}

class CPUCumSum : public Execution {
public:
    CPUCumSum(Backend* b, bool exclusive, bool reverse) : Execution(b), mExclusive(exclusive), mReverse(reverse) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* in = inputs[0];
        const int rank = in->dimensions();
        const Tensor* a = inputs[1];
        // the axis is a value (it may be computed): read here, shapes come straight from the tensor
        const int64_t axisV = a->getType().bits == 64 ? a->host<int64_t>()[0] : a->host<int32_t>()[0];
        if (axisV < -rank || axisV >= rank) {
            return error(INPUT_DATA_ERROR, "CumSum: axis %lld out of range for rank %d", (long long)axisV, rank);
        }
        const int axis = (int)(axisV < 0 ? axisV + rank : axisV);
        int64_t outer = 1, inner = 1;
        for (int i = 0; i < axis; ++i) {
            outer *= in->length(i);
        }
        for (int i = axis + 1; i < rank; ++i) {
            inner *= in->length(i);
        }
        const int64_t n = in->length(axis);
        const bool exclusive = mExclusive, reverse = mReverse;
        CPUUtils::dispatchType(in->getType(), [&](auto tag) {
            typedef typename decltype(tag)::type T;
            const T* x = in->host<T>();
            T* y = outputs[0]->host<T>();
            for (int64_t o = 0; o < outer; ++o) {
                for (int64_t i = 0; i < inner; ++i) {
                    const int64_t base = o * n * inner + i;
                    T acc = 0;
                    for (int64_t s = 0; s < n; ++s) {
                        const int64_t k = reverse ? n - 1 - s : s;
                        const int64_t off = base + k * inner;
                        const T v = x[off];
                        if (exclusive) {
                            y[off] = acc;
                            acc = addWrap<T>(acc, v);
                        } else {
                            acc = addWrap<T>(acc, v);
                            y[off] = acc;
                        }
                    }
                }
            }
        });
        return NO_ERROR;
    }

private:
    bool mExclusive;
    bool mReverse;
};

static Execution* createCumSum(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                               Backend* backend) {
    auto p = op->param_as_AxisParam();
    return new CPUCumSum(backend, p ? p->exclusive() : false, p ? p->reverse() : false);
}
} // namespace MNN

MNN_REGISTER_CPU(CumSum, createCumSum)
