// Reference EyeLike: ones where column - row == k, zeros elsewhere.
#include "CPUTypeDispatch.hpp"
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

class CPUEyeLike : public Execution {
public:
    CPUEyeLike(Backend* b, int k) : Execution(b), mK(k) {
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        Tensor* out = outputs[0];
        const int64_t rows = out->length(0), cols = out->length(1);
        const int64_t k = mK;
        CPUUtils::dispatchType(out->getType(), [&](auto tag) {
            typedef typename decltype(tag)::type T;
            T* y = out->host<T>();
            for (int64_t i = 0; i < rows; ++i) {
                for (int64_t j = 0; j < cols; ++j) {
                    y[i * cols + j] = (j - i == k) ? (T)1 : (T)0;
                }
            }
        });
        return NO_ERROR;
    }

private:
    int mK;
};

static Execution* createEyeLike(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                Backend* backend) {
    auto p = op->param_as_ConstantParam();
    return new CPUEyeLike(backend, p ? p->k() : 0);
}
} // namespace MNN

MNN_REGISTER_CPU(EyeLike, createEyeLike)
