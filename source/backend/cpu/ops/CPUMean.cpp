// Reference variadic Mean / Sum / Max / Min: folds the inputs left to right in the element type
// (like ONNX's reference), MEAN divides the sum by N. Max / Min propagate NaN; integer sums wrap.
#include <type_traits>
#include "CPUBroadcastN.hpp"
#include "CPUTypeDispatch.hpp"
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {
using Schema::BinaryOpType;

template <typename T>
static inline T foldOne(BinaryOpType type, T a, T b) {
    switch (type) {
        case BinaryOpType::MAXIMUM:
            if (a != a || b != b) {
                return a != a ? a : b;
            }
            return a > b ? a : b;
        case BinaryOpType::MINIMUM:
            if (a != a || b != b) {
                return a != a ? a : b;
            }
            return a < b ? a : b;
        default:
            if constexpr (std::is_integral<T>::value) {
                typedef typename std::make_unsigned<T>::type U;
                return (T)((U)a + (U)b);
            } else {
                return a + b;
            }
    }
}

class CPUMean : public Execution {
public:
    CPUMean(Backend* b, BinaryOpType type) : Execution(b), mType(type) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        mPlan.prepare(inputs, outputs[0]);
        mSrc.assign(inputs.size(), nullptr);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const BinaryOpType type = mType;
        const size_t n = inputs.size();
        CPUUtils::dispatchType(outputs[0]->getType(), [&](auto tag) {
            typedef typename decltype(tag)::type T;
            const void** src = mSrc.data();  // sized in onResize
            for (size_t k = 0; k < n; ++k) {
                src[k] = inputs[k]->host<void>();
            }
            T* y = outputs[0]->host<T>();
            mPlan.forEach([&](int64_t o, const int64_t* offs) {
                T acc = static_cast<const T*>(src[0])[offs[0]];
                for (size_t k = 1; k < n; ++k) {
                    acc = foldOne<T>(type, acc, static_cast<const T*>(src[k])[offs[k]]);
                }
                if (type == BinaryOpType::MEAN) {
                    acc = (T)(acc / (T)n);
                }
                y[o] = acc;
            });
        });
        return NO_ERROR;
    }

private:
    BinaryOpType mType;
    CPUUtils::BroadcastNPlan mPlan;
    std::vector<const void*> mSrc;
};

static Execution* createMean(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                             Backend* backend) {
    auto p = op->param_as_BinaryParam();
    return new CPUMean(backend, p ? p->type() : BinaryOpType::MEAN);
}
} // namespace MNN

MNN_REGISTER_CPU(Mean, createMean)
