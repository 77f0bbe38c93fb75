// Reference NonMaxSuppression: the greedy selection of shape/NmsCompute.hpp, written out as
// (batch, class, box) int64 rows.
#include <string.h>
#include "backend/cpu/CPUOpUtils.hpp"
#include "shape/NmsCompute.hpp"

namespace MNN {
class CPUNonMaxSuppression : public Execution {
public:
    CPUNonMaxSuppression(Backend* b, bool center) : Execution(b), mCenter(center) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        // the row count depends on the values (the shape pass ran the selection); the working memory
        // depends only on the box count
        mScratch.reserve(inputs[0]->dimensions() == 3 ? inputs[0]->length(1) : 0);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        std::string err;
        const int64_t rows = outputs[0]->length(0);
        int64_t selected = 0;
        if (!nmsRun(inputs, mCenter, &mScratch, outputs[0]->host<int64_t>(), rows, &selected, &err)) {
            return error(INPUT_DATA_ERROR, "NonMaxSuppression: %s", err.c_str());
        }
        if (selected != rows) {
            return error(INPUT_DATA_ERROR, "NonMaxSuppression: inputs changed after the shape pass");
        }
        return NO_ERROR;
    }

private:
    bool mCenter;
    NmsScratch mScratch;
};

static Execution* createNms(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                            Backend* backend) {
    auto p = op->param_as_NmsParam();
    return new CPUNonMaxSuppression(backend, p && p->centerPointBox() == 1);
}
} // namespace MNN

MNN_REGISTER_CPU(NonMaxSuppression, createNms)
