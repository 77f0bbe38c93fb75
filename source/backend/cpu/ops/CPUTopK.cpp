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
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const int rank = inputs[0]->dimensions();
        const int axis = mAxis < 0 ? mAxis + rank : mAxis;
        mOrder.resize(axis >= 0 && axis < rank ? (size_t)inputs[0]->length(axis) : 0);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* in = inputs[0];
        const int rank = in->dimensions();
        const int axis = mAxis < 0 ? mAxis + rank : mAxis;
        const int64_t n = in->length(axis);
        const int64_t k = outputs[0]->length(axis);
        if (k > n) {
            return INPUT_DATA_ERROR;
        }
        int64_t outer = 1, inner = 1;
        for (int i = 0; i < axis; ++i) {
            outer *= in->length(i);
        }
        for (int i = axis + 1; i < rank; ++i) {
            inner *= in->length(i);
        }
        int64_t* yi = outputs[1]->host<int64_t>();
        const bool largest = mLargest;
        auto& order = mOrder;  // sized in onResize: no allocation here
        CPUUtils::dispatchType(in->getType(), [&](auto tag) {
            typedef typename decltype(tag)::type T;
            const T* x = in->host<T>();
            T* yv = outputs[0]->host<T>();
            for (int64_t o = 0; o < outer; ++o) {
                for (int64_t i = 0; i < inner; ++i) {
                    const T* p = x + o * n * inner + i;
                    std::iota(order.begin(), order.end(), (int64_t)0);
                    // std::sort with the index as tie-break orders like a stable sort, without the
                    // temporary buffer std::stable_sort allocates
                    std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
                        T va = p[a * inner], vb = p[b * inner];
                        bool na = va != va, nb = vb != vb;
                        bool before, after;
                        if (largest) {
                            before = (na && !nb) || (!na && !nb && va > vb);
                            after = (nb && !na) || (!na && !nb && vb > va);
                        } else {
                            before = (!na && nb) || (!na && !nb && va < vb);
                            after = (!nb && na) || (!na && !nb && vb < va);
                        }
                        return before || (!after && a < b);
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
    std::vector<int64_t> mOrder;
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
