// Reference Einsum: one loop over every label (output labels outside, summed labels inside);
// products and sums in double for floats, in 64-bit wrapping integers for integer types.
#include <algorithm>
#include <type_traits>
#include "CPUTypeDispatch.hpp"
#include "EinsumPlan.hpp"
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

class CPUEinsum : public Execution {
public:
    CPUEinsum(Backend* b, const std::string& equation) : Execution(b), mEquation(equation) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        std::vector<std::vector<int>> shapes;
        for (auto t : inputs) {
            shapes.push_back(TensorUtils::shape(t));
        }
        std::string err;
        if (!buildEinsumPlan(mEquation, shapes, &mPlan, &err)) {
            return error(INVALID_VALUE, "Einsum '%s': %s", mEquation.c_str(), err.c_str());
        }
        mSrc.assign(inputs.size(), nullptr);
        mIdx.assign(mPlan.labelDims.size(), 0);
        mOffs.assign(inputs.size(), 0);
        mBase.assign(inputs.size(), 0);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const EinsumPlan& plan = mPlan;
        const int numLabels = (int)plan.labelDims.size();
        const size_t n = inputs.size();
        int64_t outCount = 1, sumCount = 1;
        for (int l = 0; l < numLabels; ++l) {
            (l < plan.numOut ? outCount : sumCount) *= plan.labelDims[l];
        }
        CPUUtils::dispatchType(outputs[0]->getType(), [&](auto tag) {
            typedef typename decltype(tag)::type T;
            typedef typename std::conditional<std::is_floating_point<T>::value, double, uint64_t>::type Acc;
            const void** srcRaw = mSrc.data();  // input pointers (sized in onResize)
            for (size_t k = 0; k < n; ++k) {
                srcRaw[k] = inputs[k]->host<void>();
            }
            T* y = outputs[0]->host<T>();
            int* idx = mIdx.data();
            int64_t* offs = mOffs.data();
            int64_t* base = mBase.data();
            for (int64_t o = 0; o < outCount; ++o) {
                // offsets of the output labels' current index
                std::fill(base, base + n, (int64_t)0);
                int64_t rem = o;
                for (int l = plan.numOut - 1; l >= 0; --l) {
                    const int i = (int)(rem % plan.labelDims[l]);
                    rem /= plan.labelDims[l];
                    for (size_t k = 0; k < n; ++k) {
                        base[k] += i * plan.inputStrides[k][l];
                    }
                }
                std::copy(base, base + n, offs);
                std::fill(idx + plan.numOut, idx + numLabels, 0);
                Acc acc = 0;
                for (int64_t s = 0; s < sumCount; ++s) {
                    Acc p = 1;
                    for (size_t k = 0; k < n; ++k) {
                        p *= (Acc) static_cast<const T*>(srcRaw[k])[offs[k]];
                    }
                    acc += p;
                    for (int l = numLabels - 1; l >= plan.numOut; --l) {
                        idx[l]++;
                        for (size_t k = 0; k < n; ++k) {
                            offs[k] += plan.inputStrides[k][l];
                        }
                        if (idx[l] < plan.labelDims[l]) {
                            break;
                        }
                        for (size_t k = 0; k < n; ++k) {
                            offs[k] -= plan.inputStrides[k][l] * plan.labelDims[l];
                        }
                        idx[l] = 0;
                    }
                }
                y[o] = (T)acc;
            }
        });
        return NO_ERROR;
    }

private:
    std::string mEquation;
    EinsumPlan mPlan;
    // sized in onResize
    std::vector<const void*> mSrc;
    std::vector<int> mIdx;
    std::vector<int64_t> mOffs, mBase;
};

static Execution* createEinsum(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                               Backend* backend) {
    auto p = op->param_as_EinsumParam();
    if (!p || !p->equation()) {
        return nullptr;
    }
    return new CPUEinsum(backend, p->equation()->str());
}
} // namespace MNN

MNN_REGISTER_CPU(Einsum, createEinsum)
