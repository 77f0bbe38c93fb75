// Reference Identity and inference Dropout: a copy (Dropout's mask, when asked for, is all true).
// Dropout with training_mode = true and ratio > 0 would need random masking, which an inference
// engine does not do: that run fails with INPUT_DATA_ERROR and a log line.
#include <string.h>
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

class CPUIdentity : public Execution {
public:
    CPUIdentity(Backend* b, bool dropout, const char* name) : Execution(b), mDropout(dropout), mName(name) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (mDropout && inputs.size() > 2 && inputs[2] && inputs[2]->host<uint8_t>()[0] != 0) {
            double ratio = (inputs[1] != nullptr) ? CPUUtils::readAsDouble(inputs[1], 0) : 0.5;
            if (ratio != 0) {
                return error(INPUT_DATA_ERROR,
                             "op %s (Dropout): training_mode is true with ratio %g; only inference is supported",
                             mName.c_str(), ratio);
            }
        }
        const size_t bytes = (size_t)TensorUtils::byteSize(inputs[0]);
        if (bytes > 0 && outputs[0]->host<void>() != inputs[0]->host<void>()) {
            ::memcpy(outputs[0]->host<void>(), inputs[0]->host<void>(), bytes);
        }
        if (outputs.size() > 1 && TensorUtils::elementCount(outputs[1]) > 0) {
            ::memset(outputs[1]->host<void>(), 1, (size_t)TensorUtils::elementCount(outputs[1]));
        }
        return NO_ERROR;
    }

private:
    bool mDropout;
    std::string mName;
};

static Execution* createIdentity(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                 Backend* backend) {
    return new CPUIdentity(backend, false, CPUUtils::opName(op));
}
static Execution* createDropout(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                Backend* backend) {
    return new CPUIdentity(backend, true, CPUUtils::opName(op));
}
} // namespace MNN

MNN_REGISTER_CPU(Identity, createIdentity)
MNN_REGISTER_CPU(Dropout, createDropout)
