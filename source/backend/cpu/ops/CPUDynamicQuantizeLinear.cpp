// Reference DynamicQuantizeLinear: one pass for the range, one to quantize (CPUDynamicQuant.hpp).
#include "backend/cpu/CPUOpUtils.hpp"
#include "CPUDynamicQuant.hpp"
#include "shape/ShapeUtils.hpp"

namespace MNN {

class CPUDynamicQuantizeLinear : public Execution {
public:
    explicit CPUDynamicQuantizeLinear(Backend* b) : Execution(b) {}
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const float* x = inputs[0]->host<float>();
        const int64_t n = TensorUtils::elementCount(inputs[0]);
        const DynamicQuant p = dynamicQuantParams(x, n);
        if (outputs[0]) {
            dynamicQuantize(x, n, p, outputs[0]->host<uint8_t>());
        }
        if (outputs.size() > 1 && outputs[1]) {
            outputs[1]->host<float>()[0] = p.scale;
        }
        if (outputs.size() > 2 && outputs[2]) {
            outputs[2]->host<uint8_t>()[0] = (uint8_t)p.zeroPoint;
        }
        return NO_ERROR;
    }
};

static Execution* createDynamicQuantizeLinear(const std::vector<Tensor*>&, const std::vector<Tensor*>&,
                                              const Schema::Op*, Backend* backend) {
    return new CPUDynamicQuantizeLinear(backend);
}

}  // namespace MNN

MNN_REGISTER_CPU(DynamicQuantizeLinear, createDynamicQuantizeLinear)
