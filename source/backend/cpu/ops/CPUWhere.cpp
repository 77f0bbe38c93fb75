// Reference Where: out = condition ? X : Y with three-way broadcasting (copies element bytes).
#include <string.h>
#include "CPUBroadcastN.hpp"
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

class CPUWhere : public Execution {
public:
    explicit CPUWhere(Backend* b) : Execution(b) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        mPlan.prepare(inputs, outputs[0]);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const uint8_t* c = inputs[0]->host<uint8_t>();
        const uint8_t* x = inputs[1]->host<uint8_t>();
        const uint8_t* y = inputs[2]->host<uint8_t>();
        uint8_t* z = outputs[0]->host<uint8_t>();
        const size_t bytes = (size_t)outputs[0]->getType().bytes();
        mPlan.forEach([&](int64_t o, const int64_t* offs) {
            const uint8_t* src = c[offs[0]] ? x + offs[1] * bytes : y + offs[2] * bytes;
            ::memcpy(z + o * bytes, src, bytes);
        });
        return NO_ERROR;
    }

private:
    CPUUtils::BroadcastNPlan mPlan;
};

static Execution* createWhere(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op*,
                              Backend* backend) {
    return new CPUWhere(backend);
}
} // namespace MNN

MNN_REGISTER_CPU(Where, createWhere)
