// Reference PRelu: y = x < 0 ? slope * x : x, slope broadcast to X (numpy rule, one direction).
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

class CPUPRelu : public Execution {
public:
    explicit CPUPRelu(Backend* b) : Execution(b) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        mShape = TensorUtils::shape(outputs[0]);
        mXStrides = CPUUtils::broadcastStrides(TensorUtils::shape(inputs[0]), mShape);
        mSlopeStrides = CPUUtils::broadcastStrides(TensorUtils::shape(inputs[1]), mShape);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto t = inputs[0]->getType();
        if (t == halide_type_of<float>()) {
            run<float>(inputs, outputs[0]);
        } else if (t == halide_type_of<double>()) {
            run<double>(inputs, outputs[0]);
        } else if (t == halide_type_of<int32_t>()) {
            run<int32_t>(inputs, outputs[0]);
        } else if (t == halide_type_of<int64_t>()) {
            run<int64_t>(inputs, outputs[0]);
        } else {
            return NOT_SUPPORT;
        }
        return NO_ERROR;
    }

private:
    template <typename T>
    void run(const std::vector<Tensor*>& inputs, Tensor* output) {
        const T* x = inputs[0]->host<T>();
        const T* s = inputs[1]->host<T>();
        T* y = output->host<T>();
        CPUUtils::forEachBroadcast2(mShape, mXStrides, mSlopeStrides, [&](int64_t o, int64_t ix, int64_t is) {
            y[o] = x[ix] < 0 ? (T)(s[is] * x[ix]) : x[ix];
        });
    }
    std::vector<int> mShape;
    std::vector<int64_t> mXStrides;
    std::vector<int64_t> mSlopeStrides;
};

static Execution* createPRelu(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op*,
                              Backend* backend) {
    return new CPUPRelu(backend);
}

} // namespace MNN

MNN_REGISTER_CPU(PRelu, createPRelu)
