// Reference TopK: a stable sort of each slice along `axis`, so equal values keep the lower index
// first; NaN orders above every number. The output is always sorted (allowed when sorted = 0).
#include <algorithm>
#include <numeric>
#include "CPUTypeDispatch.hpp"
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

class CPUTopK : public Execution {
public:
    CPUTopK(Backend* b, int axis, bool largest) : Execution(b), mAxis(axis), mLargest(largest) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* in = inputs[0];
        auto shape = TensorUtils::shape(in);
        const int rank = (int)shape.size();
        const int axis = mAxis < 0 ? mAxis + rank : mAxis;
        const int64_t n = shape[axis];
        const int64_t k = outputs[0]->length(axis);
        if (k > n) {
            return INPUT_DATA_ERROR;
        }
        int64_t outer = 1, inner = 1;
        for (int i = 0; i < axis; ++i) {
            outer *= shape[i];
        }
        for (int i = axis + 1; i < rank; ++i) {
            inner *= shape[i];
        }
        int64_t* yi = outputs[1]->host<int64_t>();
        const bool largest = mLargest;
        std::vector<int64_t> order((size_t)n);
        CPUUtils::dispatchType(in->getType(), [&](auto tag) {
            typedef typename decltype(tag)::type T;
            const T* x = in->host<T>();
            T* yv = outputs[0]->host<T>();
            for (int64_t o = 0; o < outer; ++o) {
                for (int64_t i = 0; i < inner; ++i) {
                    const T* p = x + o * n * inner + i;
                    std::iota(order.begin(), order.end(), (int64_t)0);
                    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
                        T va = p[a * inner], vb = p[b * inner];
                        bool na = va != va, nb = vb != vb;
                        if (largest) {
                            return (na && !nb) || va > vb;
                        }
                        return (!na && nb) || va < vb;
                    });
                    for (int64_t j = 0; j < k; ++j) {
                        const int64_t dst = (o * k + j) * inner + i;
                        yv[dst] = p[order[j] * inner];
                        yi[dst] = order[j];
                    }
                }
            }
        });
        return NO_ERROR;
    }

private:
    int mAxis;
    bool mLargest;
};

static Execution* createTopK(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                             Backend* backend) {
    auto p = op->param_as_TopKParam();
    if (!p) {
        return new CPUTopK(backend, -1, true);
    }
    return new CPUTopK(backend, p->axis(), p->largest());
}
} // namespace MNN

MNN_REGISTER_CPU(TopK, createTopK)
