// Reference Trilu: keeps element (i, j) of each trailing matrix when j - i >= k (upper) or
// j - i <= k (lower), zero elsewhere. Works on element bytes, so every type is the same code.
#include <string.h>
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

class CPUTrilu : public Execution {
public:
    CPUTrilu(Backend* b, bool upper) : Execution(b), mUpper(upper) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* in = inputs[0];
        int64_t k = 0;
        if (inputs.size() > 1 && inputs[1]) {
            k = inputs[1]->getType().bits == 64 ? inputs[1]->host<int64_t>()[0] : inputs[1]->host<int32_t>()[0];
        }
        const int rank = in->dimensions();
        const int64_t rows = in->length(rank - 2), cols = in->length(rank - 1);
        const int64_t batch = rows * cols == 0 ? 0 : TensorUtils::elementCount(in) / (rows * cols);
        const size_t bytes = (size_t)in->getType().bytes();
        const uint8_t* x = in->host<uint8_t>();
        uint8_t* y = outputs[0]->host<uint8_t>();
        for (int64_t b = 0; b < batch; ++b) {
            for (int64_t i = 0; i < rows; ++i) {
                for (int64_t j = 0; j < cols; ++j) {
                    const int64_t off = ((b * rows + i) * cols + j) * (int64_t)bytes;
                    const int64_t d = j - i;
                    const bool keep = mUpper ? d >= k : d <= k;
                    if (keep) {
                        ::memcpy(y + off, x + off, bytes);
                    } else {
                        ::memset(y + off, 0, bytes);
                    }
                }
            }
        }
        return NO_ERROR;
    }

private:
    bool mUpper;
};

static Execution* createTrilu(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                              Backend* backend) {
    auto p = op->param_as_TriluParam();
    return new CPUTrilu(backend, p ? p->upper() : true);
}
} // namespace MNN

MNN_REGISTER_CPU(Trilu, createTrilu)
