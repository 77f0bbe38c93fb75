// ConvolutionPool (X, W, [B]) as its two parts: the convolution's Execution into an intermediate
// [N, M, OH, OW] planned for this op only, then the pooling's Execution over it. On the plain
// layout these are the plain Convolution and Pooling Executions (fast or reference; MNN_CONV_ALGO
// applies to both): with MNN_CONV_ALGO=reference this is the oracle the banded packed kernel
// (CPUConvolutionPacked.cpp) is tested against. On the packed layout the pair is packed
// (createPackedConvolutionPool) where the banded kernel does not apply: a depthwise convolution
// keeps its own kernel, and a Winograd one too, with the pool inside its Execution where each
// thread gets two or more pooled rows (CPUConvolutionPackedWinograd.cpp: fusePool).
#include "CPUConvolutionPool.hpp"
#include <stdio.h>
#include <memory>
#include <string>
#include "CPUConvolutionFast.hpp"
#include "CPUPoolingFast.hpp"
#include "backend/cpu/PackedLayout.hpp"
#include "core/Macro.hpp"
#include "core/TensorUtils.hpp"

namespace MNN {

namespace {

class CPUConvolutionPool : public Execution {
public:
    CPUConvolutionPool(Backend* b, const ConvAttrs& conv, const PoolAttrs& pool, Tensor* mid, Execution* convExec,
                       Execution* poolExec)
        : Execution(b), mConvAttrs(conv), mPoolAttrs(pool), mMid(mid), mConv(convExec), mPool(poolExec) {
        snprintf(mAlgo, sizeof(mAlgo), "%s, then %s", mConv->algorithm(), mPool->algorithm());
    }

    const char* algorithm() const override {
        return mAlgo;
    }

    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        std::string err;
        if (!shapeConvolutionPoolMid(mConvAttrs, mPoolAttrs, inputs, mMid.get(), &err)) {
            return error(INVALID_VALUE, "%s", err.c_str());
        }
        TensorUtils::describe(mMid.get())->name = TensorUtils::describe(outputs[0])->name + "/convolution";
        mConvIn.assign(inputs.begin(), inputs.end());
        // the intermediate lives during this op only: planned here, reused by later ops
        if (!backend()->onAcquireBuffer(mMid.get(), Backend::DYNAMIC)) {
            return OUT_OF_MEMORY;
        }
        mMidV = {mMid.get()};
        auto code = mConv->onResize(mConvIn, mMidV);
        if (code == NO_ERROR) {
            code = mPool->onResize(mMidV, outputs);
        }
        backend()->onReleaseBuffer(mMid.get(), Backend::DYNAMIC);
        snprintf(mAlgo, sizeof(mAlgo), "%s, then %s", mConv->algorithm(), mPool->algorithm());
        return code;
    }

    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        // no allocation per run: the vectors were filled by onResize
        auto code = mConv->onExecute(mConvIn, mMidV);
        return code == NO_ERROR ? mPool->onExecute(mMidV, outputs) : code;
    }

private:
    ConvAttrs mConvAttrs;
    PoolAttrs mPoolAttrs;
    std::unique_ptr<Tensor> mMid;
    std::unique_ptr<Execution> mConv, mPool;
    std::vector<Tensor*> mConvIn, mMidV;
    char mAlgo[160];
};

bool loadAttrs(const Schema::Op* op, ConvAttrs* conv, PoolAttrs* pool) {
    auto p = op ? op->param_as_ConvolutionPoolParam() : nullptr;
    if (!p || !p->conv() || !p->pool()) {
        return false;
    }
    conv->load(p->conv());
    pool->load(p->pool());
    return true;
}

Execution* createConvolutionPool(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                 const Schema::Op* op, Backend* backend) {
    ConvAttrs conv;
    PoolAttrs pool;
    if (!loadAttrs(op, &conv, &pool) || inputs.size() < 2 || inputs.size() > 3 || !inputs[0] || !inputs[1] ||
        outputs.size() != 1) {
        return nullptr;  // reported by Session (no kernel for the op, with its tensors)
    }
    std::unique_ptr<Tensor> mid(new Tensor(4, Tensor::CAFFE));
    std::string err;
    if (!shapeConvolutionPoolMid(conv, pool, inputs, mid.get(), &err)) {
        return nullptr;  // reported by Session (no kernel for the op, with its tensors); the shape function saw it
                         // first
    }
    std::unique_ptr<Execution> c(createPlainConvolution(inputs, conv, backend));
    std::vector<Tensor*> midv = {mid.get()};
    std::unique_ptr<Execution> p(createPlainPooling(midv, outputs, pool, backend));
    if (!c || !p) {
        return nullptr;  // reported by Session (no kernel for the op, with its tensors)
    }
    return new CPUConvolutionPool(backend, conv, pool, mid.release(), c.release(), p.release());
}

}  // namespace

bool shapeConvolutionPoolMid(const ConvAttrs& conv, const PoolAttrs& pool, const std::vector<Tensor*>& inputs,
                             Tensor* mid, std::string* err) {
    if (inputs.size() < 2 || !inputs[0] || !inputs[1]) {
        *err = "needs X and W";
        return false;
    }
    std::vector<int> b;
    const bool hasBias = inputs.size() > 2 && inputs[2];
    if (hasBias) {
        b = TensorUtils::shape(inputs[2]);
    }
    WindowGeometry cg, pg;
    int m = 0;
    auto x = TensorUtils::shape(inputs[0]);
    if (!resolveConvolutionPool(conv, pool, x, TensorUtils::shape(inputs[1]), hasBias ? &b : nullptr, &cg, &pg, &m,
                                err)) {
        return false;
    }
    mid->buffer().type = halide_type_of<float>();
    TensorUtils::setShape(mid, {x[0], m, cg.output[0], cg.output[1]});
    return true;
}

Execution* makeConvolutionPoolPair(Backend* backend, const ConvAttrs& conv, const PoolAttrs& pool, Tensor* mid,
                                   Execution* convExec, Execution* poolExec) {
    if (!mid || !convExec || !poolExec) {
        delete mid;
        delete convExec;
        delete poolExec;
        return nullptr;
    }
    return new CPUConvolutionPool(backend, conv, pool, mid, convExec, poolExec);
}

}  // namespace MNN

MNN_REGISTER_CPU(ConvolutionPool, createConvolutionPool)
