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
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        std::string err;
        if (!nmsRun(inputs, mCenter, &mSelected, &err)) {
            MNN_ERROR("NonMaxSuppression: %s\n", err.c_str());
            return INPUT_DATA_ERROR;
        }
        if ((int64_t)mSelected.size() != TensorUtils::elementCount(outputs[0])) {
            MNN_ERROR("NonMaxSuppression: inputs changed after the shape pass\n");
            return INPUT_DATA_ERROR;
        }
        if (!mSelected.empty()) {
            ::memcpy(outputs[0]->host<int64_t>(), mSelected.data(), mSelected.size() * sizeof(int64_t));
        }
        return NO_ERROR;
    }

private:
    bool mCenter;
    std::vector<int64_t> mSelected;
};

static Execution* createNms(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                            Backend* backend) {
    auto p = op->param_as_NmsParam();
    return new CPUNonMaxSuppression(backend, p && p->centerPointBox() == 1);
}
} // namespace MNN

MNN_REGISTER_CPU(NonMaxSuppression, createNms)
