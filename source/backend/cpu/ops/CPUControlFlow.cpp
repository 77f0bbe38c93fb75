// If / Loop / Scan on the CPU: nested sessions run the subgraphs (core/ControlFlow.hpp).
#include <string.h>
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUOpUtils.hpp"
#include "core/ControlFlow.hpp"

namespace MNN {

class CPUControlFlow : public Execution {
public:
    CPUControlFlow(Backend* b, std::unique_ptr<ControlFlowOp> op, const std::string& name)
        : Execution(b), mOp(std::move(op)), mName(name) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto code = mOp->run(inputs, &mValues);
        if (code != NO_ERROR) {
            return code;
        }
        for (size_t i = 0; i < outputs.size(); ++i) {
            auto& v = mValues[i];
            if (v.dims != TensorUtils::shape(outputs[i]) || v.type != outputs[i]->getType() ||
                (int64_t)v.bytes.size() != TensorUtils::byteSize(outputs[i])) {
                return error(INVALID_VALUE, "op %s: output %d has shape %s at run, %s at resize", mName.c_str(), (int)i,
                             TensorUtils::shapeString(v.dims).c_str(), TensorUtils::shapeString(outputs[i]).c_str());
            }
            if (!v.bytes.empty()) {
                ::memcpy(outputs[i]->host<uint8_t>(), v.bytes.data(), v.bytes.size());
            }
        }
        return NO_ERROR;
    }
    const char* algorithm() const override {
        return "nested session";
    }

private:
    std::unique_ptr<ControlFlowOp> mOp;
    std::string mName;
    std::vector<HostValue> mValues;
};

static Execution* createControlFlow(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                    Backend* backend) {
    auto precision = static_cast<CPUBackend*>(backend)->precision();
    auto cf = ControlFlowOp::create(op, precision);
    if (!cf) {
        return nullptr;
    }
    return new CPUControlFlow(backend, std::move(cf), CPUUtils::opName(op));
}

} // namespace MNN

MNN_REGISTER_CPU(If, MNN::createControlFlow)
MNN_REGISTER_CPU(Loop, MNN::createControlFlow)
MNN_REGISTER_CPU(Scan, MNN::createControlFlow)
