// PointwiseDepthwise on the plain layout: the two convolutions one after the other through the
// Convolution Executions (fast or reference, MNN_CONV_ALGO applies to both), the intermediate
// [N, E, H, W] in a tensor planned for this op only; the optional mean output M [N, E, 1, 1] summed
// from Y afterwards (in double). With MNN_CONV_ALGO=reference this is the oracle the banded packed
// kernel (CPUPointwiseDepthwisePacked.cpp) is tested against.
#include <memory>
#include <string>
#include "CPUConvolutionFast.hpp"
#include "backend/cpu/CPUOpUtils.hpp"
#include "core/Macro.hpp"
#include "core/TensorUtils.hpp"

namespace MNN {

namespace {

class CPUPointwiseDepthwise : public Execution {
public:
    CPUPointwiseDepthwise(Backend* b, const ConvAttrs& pw, const ConvAttrs& dw) : Execution(b), mPw(pw), mDw(dw) {
        mMid.reset(new Tensor(4, Tensor::CAFFE));
    }

    /** the inner Executions, made once (they must not keep the op) */
    bool init(const std::vector<Tensor*>& inputs) {
        shapeMid(inputs[0]->length(0), inputs[1]->length(0), inputs[0]->length(2), inputs[0]->length(3));
        mFirstIn = {inputs[0], inputs[1], inputs[2]};
        mSecondIn = {mMid.get(), inputs[3], bias2(inputs)};
        mFirst.reset(createPlainConvolution(mFirstIn, mPw, backend()));
        mSecond.reset(createPlainConvolution(mSecondIn, mDw, backend()));
        return mFirst && mSecond;
    }

    const char* algorithm() const override {
        return mSecond ? mSecond->algorithm() : "reference";
    }

    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        std::vector<int> b1s, b2s;
        if (inputs[2]) {
            b1s = TensorUtils::shape(inputs[2]);
        }
        if (bias2(inputs)) {
            b2s = TensorUtils::shape(bias2(inputs));
        }
        WindowGeometry g1, g2;
        int e = 0;
        std::string err;
        auto x = TensorUtils::shape(inputs[0]);
        if (!resolvePointwiseDepthwise(mPw, mDw, x, TensorUtils::shape(inputs[1]), inputs[2] ? &b1s : nullptr,
                                       TensorUtils::shape(inputs[3]), bias2(inputs) ? &b2s : nullptr, &g1, &g2, &e, &err)) {
            return error(INVALID_VALUE, "PointwiseDepthwise %s: %s", TensorUtils::describe(outputs[0])->name.c_str(),
                         err.c_str());
        }
        shapeMid(x[0], e, x[2], x[3]);
        TensorUtils::describe(mMid.get())->name = TensorUtils::describe(outputs[0])->name + "/pointwise";
        mFirstIn = {inputs[0], inputs[1], inputs[2]};
        mSecondIn = {mMid.get(), inputs[3], bias2(inputs)};
        // the intermediate lives during this op only: planned here, reused by later ops
        if (!backend()->onAcquireBuffer(mMid.get(), Backend::DYNAMIC)) {
            return OUT_OF_MEMORY;
        }
        std::vector<Tensor*> midOut = {mMid.get()};
        auto code = mFirst->onResize(mFirstIn, midOut);
        if (code == NO_ERROR) {
            code = mSecond->onResize(mSecondIn, {outputs[0]});
        }
        backend()->onReleaseBuffer(mMid.get(), Backend::DYNAMIC);
        return code;
    }

    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        std::vector<Tensor*> midOut = {mMid.get()};
        auto code = mFirst->onExecute(mFirstIn, midOut);
        if (code == NO_ERROR) {
            code = mSecond->onExecute(mSecondIn, {outputs[0]});
        }
        if (code == NO_ERROR && outputs.size() > 1) {
            planeMeans(outputs[0], outputs[1]);
        }
        return code;
    }

private:
    /** m[n, e] = the mean of y[n, e, :, :] (the plain GlobalAveragePool) */
    static void planeMeans(const Tensor* y, Tensor* m) {
        const int64_t rows = (int64_t)y->length(0) * y->length(1);
        const int64_t plane = (int64_t)y->length(2) * y->length(3);
        const float* src = y->host<float>();
        float* dst = m->host<float>();
        for (int64_t r = 0; r < rows; ++r) {
            double sum = 0.0;
            for (int64_t i = 0; i < plane; ++i) {
                sum += src[r * plane + i];
            }
            dst[r] = plane > 0 ? (float)(sum / (double)plane) : 0.0f;
        }
    }
    static Tensor* bias2(const std::vector<Tensor*>& inputs) {
        return inputs.size() > 4 ? inputs[4] : nullptr;
    }
    void shapeMid(int n, int e, int h, int w) {
        mMid->buffer().type = halide_type_of<float>();
        TensorUtils::setShape(mMid.get(), {n, e, h, w});
    }

    ConvAttrs mPw, mDw;
    std::unique_ptr<Tensor> mMid;
    std::unique_ptr<Execution> mFirst, mSecond;
    std::vector<Tensor*> mFirstIn, mSecondIn;
};

Execution* createPointwiseDepthwise(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>&,
                                    const Schema::Op* op, Backend* backend) {
    auto p = op->param_as_PointwiseDepthwiseParam();
    if (!p || !p->pointwise() || !p->depthwise() || inputs.size() < 4 || inputs.size() > 5 || !inputs[0] ||
        !inputs[1] || !inputs[3]) {
        return nullptr;
    }
    ConvAttrs pw, dw;
    pw.load(p->pointwise());
    dw.load(p->depthwise());
    std::unique_ptr<CPUPointwiseDepthwise> e(new CPUPointwiseDepthwise(backend, pw, dw));
    if (!e->init(inputs)) {
        return nullptr;
    }
    return e.release();
}

}  // namespace

}  // namespace MNN

MNN_REGISTER_CPU(PointwiseDepthwise, createPointwiseDepthwise)
