// Reference NegativeLogLikelihoodLoss. With D = d1 * ... * dk, element (n, d) picks class
// c = target[n, d]: loss = -input[n, c, d] * w[c] (w = 1 without the weight input), and c ==
// ignoreIndex gives loss 0 and weight 0. Sums are taken in double; mean divides the sum by the sum
// of the weights used (0 / 0 = NaN when every element is ignored, as ONNX's reference does). A class
// outside [0, C) that is not ignored fails the run with INPUT_DATA_ERROR.
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

class CPUNegativeLogLikelihoodLoss : public Execution {
public:
    CPUNegativeLogLikelihoodLoss(Backend* b, Schema::LossReduction reduction, bool hasIgnore, int64_t ignore,
                                 const char* name)
        : Execution(b), mReduction(reduction), mHasIgnore(hasIgnore), mIgnore(ignore), mName(name) {}
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>&) override {
        const Tensor* x = inputs[0];
        mN = x->length(0);
        mC = x->length(1);
        mD = 1;
        for (int i = 2; i < x->dimensions(); ++i) {
            mD *= x->length(i);
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const bool dbl = inputs[0]->getType().bits == 64;
        const bool t64 = inputs[1]->getType().bits == 64;
        if (dbl) {
            return t64 ? run<double, int64_t>(inputs, outputs) : run<double, int32_t>(inputs, outputs);
        }
        return t64 ? run<float, int64_t>(inputs, outputs) : run<float, int32_t>(inputs, outputs);
    }

private:
    template <typename T, typename I>
    ErrorCode run(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
        const T* x = inputs[0]->host<T>();
        const I* target = inputs[1]->host<I>();
        const T* w = (inputs.size() > 2 && inputs[2]) ? inputs[2]->host<T>() : nullptr;
        T* y = outputs[0]->host<T>();
        const int64_t n = mN, c = mC, d = mD;
        double lossSum = 0.0, weightSum = 0.0;
        for (int64_t i = 0; i < n; ++i) {
            for (int64_t j = 0; j < d; ++j) {
                const int64_t k = (int64_t)target[i * d + j];
                double loss = 0.0, weight = 0.0;
                if (!(mHasIgnore && k == mIgnore)) {
                    if (k < 0 || k >= c) {
                        return error(INPUT_DATA_ERROR,
                                     "op %s (NegativeLogLikelihoodLoss): target %lld at %lld is outside [0, %lld)",
                                     mName.c_str(), (long long)k, (long long)(i * d + j), (long long)c);
                    }
                    weight = w ? (double)w[k] : 1.0;
                    loss = -(double)x[(i * c + k) * d + j] * weight;
                }
                if (mReduction == Schema::LossReduction::NONE) {
                    y[i * d + j] = (T)loss;
                }
                lossSum += loss;
                weightSum += weight;
            }
        }
        if (mReduction == Schema::LossReduction::SUM) {
            y[0] = (T)lossSum;
        } else if (mReduction == Schema::LossReduction::MEAN) {
            y[0] = (T)(lossSum / weightSum);
        }
        return NO_ERROR;
    }

    Schema::LossReduction mReduction;
    bool mHasIgnore;
    int64_t mIgnore;
    std::string mName;
    int64_t mN = 0, mC = 0, mD = 1;
};

static Execution* createNegativeLogLikelihoodLoss(const std::vector<Tensor*>&, const std::vector<Tensor*>&,
                                                  const Schema::Op* op, Backend* backend) {
    auto p = op->param_as_LossParam();
    return new CPUNegativeLogLikelihoodLoss(backend, p ? p->reduction() : Schema::LossReduction::MEAN,
                                            p && p->hasIgnoreIndex(), p ? p->ignoreIndex() : 0, CPUUtils::opName(op));
}
}  // namespace MNN

MNN_REGISTER_CPU(NegativeLogLikelihoodLoss, createNegativeLogLikelihoodLoss)
