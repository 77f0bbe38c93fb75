// Reference Identity and Dropout. Identity and inference Dropout copy (Dropout's mask, when asked
// for, is all true). Dropout(data, [ratio = 0.5], [training_mode = false]) in training mode with
// ratio r > 0 keeps element i when u_i >= r and scales it by 1 / (1 - r); dropped elements are 0.
// u_i are uniform doubles in [0, 1) drawn in element order from a 32-bit Mersenne Twister
// (std::mt19937) seeded with DropoutParam.seed (its low 32 bits; std::random_device when there is
// none), each from two outputs a, b as ((a >> 5) * 2^26 + (b >> 6)) / 2^53 (Matsumoto and
// Nishimura's genrand_res53). This is the generator numpy's RandomState uses, so a seeded mask is
// the one ONNX's reference implementation draws. Each run of a session continues the stream. A
// ratio outside [0, 1) fails the run with INPUT_DATA_ERROR.
#include <string.h>
#include <random>
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

static void copyThrough(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
    const size_t bytes = (size_t)TensorUtils::byteSize(inputs[0]);
    if (bytes > 0 && outputs[0]->host<void>() != inputs[0]->host<void>()) {
        ::memcpy(outputs[0]->host<void>(), inputs[0]->host<void>(), bytes);
    }
    if (outputs.size() > 1 && TensorUtils::elementCount(outputs[1]) > 0) {
        ::memset(outputs[1]->host<void>(), 1, (size_t)TensorUtils::elementCount(outputs[1]));
    }
}

class CPUIdentity : public Execution {
public:
    explicit CPUIdentity(Backend* b) : Execution(b) {}
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        copyThrough(inputs, outputs);
        return NO_ERROR;
    }
};

class CPUDropout : public Execution {
public:
    CPUDropout(Backend* b, bool hasSeed, int64_t seed, const char* name) : Execution(b), mName(name) {
        mEngine.seed(hasSeed ? (uint32_t)(uint64_t)seed : (uint32_t)std::random_device()());
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (inputs.size() > 2 && inputs[2] && inputs[2]->host<uint8_t>()[0] != 0) {
            const double ratio = (inputs.size() > 1 && inputs[1]) ? CPUUtils::readAsDouble(inputs[1], 0) : 0.5;
            if (!(ratio >= 0.0 && ratio < 1.0)) {
                return error(INPUT_DATA_ERROR, "op %s (Dropout): training_mode ratio %g is outside [0, 1)",
                             mName.c_str(), ratio);
            }
            if (ratio > 0.0) {
                drop(inputs[0], outputs, ratio);
                return NO_ERROR;
            }
        }
        copyThrough(inputs, outputs);
        return NO_ERROR;
    }

private:
    double uniform() {
        const uint32_t a = (uint32_t)mEngine() >> 5;
        const uint32_t b = (uint32_t)mEngine() >> 6;
        return ((double)a * 67108864.0 + (double)b) * (1.0 / 9007199254740992.0);
    }
    void drop(const Tensor* x, const std::vector<Tensor*>& outputs, double ratio) {
        Tensor* y = outputs[0];
        uint8_t* mask = outputs.size() > 1 ? outputs[1]->host<uint8_t>() : nullptr;
        const int64_t n = TensorUtils::elementCount(x);
        const double scale = 1.0 / (1.0 - ratio);
        const bool f32 = CPUUtils::isFloat(x);
        for (int64_t i = 0; i < n; ++i) {
            const bool keep = uniform() >= ratio;
            if (mask) {
                mask[i] = keep ? 1 : 0;
            }
            if (f32) {
                y->host<float>()[i] = keep ? x->host<float>()[i] * (float)scale : 0.0f;
            } else {
                CPUUtils::writeFromDouble(y, i, keep ? CPUUtils::readAsDouble(x, i) * scale : 0.0);
            }
        }
    }

    std::string mName;
    std::mt19937 mEngine;
};

static Execution* createIdentity(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op*,
                                 Backend* backend) {
    return new CPUIdentity(backend);
}
static Execution* createDropout(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                Backend* backend) {
    auto p = op->param_as_DropoutParam();
    return new CPUDropout(backend, p && p->hasSeed(), p ? p->seed() : 0, CPUUtils::opName(op));
}
} // namespace MNN

MNN_REGISTER_CPU(Identity, createIdentity)
MNN_REGISTER_CPU(Dropout, createDropout)
