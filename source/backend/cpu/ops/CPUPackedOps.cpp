#include "CPUPackedOps.hpp"
#include <memory>
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/PackedLayout.hpp"
#include "core/Macro.hpp"
#include "core/TensorUtils.hpp"

namespace MNN {

static bool isFloat4d(const Tensor* t) {
    return t && t->dimensions() == 4 && t->getType() == halide_type_of<float>();
}

static bool sameShape(const Tensor* a, const Tensor* b) {
    if (a->dimensions() != b->dimensions()) {
        return false;
    }
    for (int i = 0; i < a->dimensions(); ++i) {
        if (a->length(i) != b->length(i)) {
            return false;
        }
    }
    return true;
}

static bool isConstant(const Tensor* t) {
    return t && TensorUtils::describe(t)->usage == Tensor::InsideDescribe::CONSTANT;
}

int cpuPackedSupport(const Schema::Op* op, const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
    if (inputs.empty() || outputs.size() != 1 || !isFloat4d(outputs[0])) {
        return Backend::PACKED_NONE;
    }
    switch (op->type()) {
        case Schema::OpType::Convolution: {
            // 2-D with constant weights (and bias): native kernels or the converting adapter
            if (inputs.size() < 2 || !isFloat4d(inputs[0]) || !isConstant(inputs[1]) ||
                (inputs.size() > 2 && inputs[2] && !isConstant(inputs[2]))) {
                return Backend::PACKED_NONE;
            }
            return Backend::PACKED_MIXED;
        }
        case Schema::OpType::UnaryOp: {
            auto p = op->param_as_UnaryParam();
            if (!p || inputs.size() != 1 || !isFloat4d(inputs[0])) {
                return Backend::PACKED_NONE;
            }
            switch (p->type()) {
                case Schema::UnaryOpType::ISNAN:
                case Schema::UnaryOpType::ISINF:
                case Schema::UnaryOpType::NOT:
                case Schema::UnaryOpType::BITWISE_NOT:
                    return Backend::PACKED_NONE;
                default:
                    return Backend::PACKED_UNIFORM;
            }
        }
        case Schema::OpType::BinaryOp: {
            // same-shaped operands: the plain kernel runs over the padded buffer
            if (inputs.size() != 2 || !isFloat4d(inputs[0]) || !isFloat4d(inputs[1]) ||
                !sameShape(inputs[0], outputs[0]) || !sameShape(inputs[1], outputs[0])) {
                return Backend::PACKED_NONE;
            }
            return Backend::PACKED_UNIFORM;
        }
        case Schema::OpType::Pooling:
            return packedPoolingSupported(op, inputs, outputs) ? Backend::PACKED_UNIFORM : Backend::PACKED_NONE;
        default:
            return Backend::PACKED_NONE;
    }
}

namespace {

/**
 * Runs a plain Execution for an op whose tensors are (partly) packed. CONVERT: packed inputs are
 * unpacked into plain scratch tensors before, packed outputs packed from plain scratch after. FLAT
 * (elementwise ops whose tensors all have one shape): the plain kernel sees each packed tensor as
 * a 1-D tensor over its whole padded buffer.
 */
class CPUPackedAdapter : public Execution {
public:
    enum Mode { CONVERT, FLAT };
    CPUPackedAdapter(Backend* backend, const Schema::Op* op, Mode mode) : Execution(backend), mOp(op), mMode(mode) {
    }

    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        mProxyIn.assign(inputs.size(), nullptr);
        mProxyOut.assign(outputs.size(), nullptr);
        mOwned.clear();
        mIns = inputs;
        mOuts = outputs;
        auto makeProxy = [&](Tensor* t) -> Tensor* {
            Tensor* p = nullptr;
            if (mMode == FLAT) {
                p = new Tensor(1, Tensor::CAFFE);
                p->buffer().type = t->getType();
                TensorUtils::setShape(p, {(int)(TensorUtils::byteSize(t) / (int64_t)sizeof(float))});
            } else {
                p = new Tensor(4, Tensor::CAFFE);
                p->buffer().type = t->getType();
                TensorUtils::setShape(p, TensorUtils::shape(t));
            }
            TensorUtils::describe(p)->name = TensorUtils::describe(t)->name;
            mOwned.emplace_back(p);
            return p;
        };
        for (size_t i = 0; i < inputs.size(); ++i) {
            if (inputs[i] && isCpuPacked(inputs[i])) {
                mProxyIn[i] = makeProxy(inputs[i]);
                mIns[i] = mProxyIn[i];
            }
        }
        for (size_t i = 0; i < outputs.size(); ++i) {
            if (isCpuPacked(outputs[i])) {
                mProxyOut[i] = makeProxy(outputs[i]);
                mOuts[i] = mProxyOut[i];
            }
        }
        if (!mInner) {
            mInner.reset(mBackend->onCreate(mIns, mOuts, mOp));
            if (!mInner) {
                return NOT_SUPPORT;
            }
        }
        if (mMode == FLAT) {
            return mInner->onResize(mIns, mOuts);
        }
        for (auto& p : mOwned) {
            if (!mBackend->onAcquireBuffer(p.get(), Backend::DYNAMIC)) {
                return OUT_OF_MEMORY;
            }
        }
        auto code = mInner->onResize(mIns, mOuts);
        for (auto& p : mOwned) {
            mBackend->onReleaseBuffer(p.get(), Backend::DYNAMIC);
        }
        return code;
    }

    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        if (mMode == FLAT) {
            for (size_t i = 0; i < inputs.size(); ++i) {
                if (mProxyIn[i]) {
                    mProxyIn[i]->buffer().host = inputs[i]->buffer().host;
                }
            }
            for (size_t i = 0; i < outputs.size(); ++i) {
                if (mProxyOut[i]) {
                    mProxyOut[i]->buffer().host = outputs[i]->buffer().host;
                }
            }
            return mInner->onExecute(mIns, mOuts);
        }
        for (size_t i = 0; i < inputs.size(); ++i) {
            if (mProxyIn[i]) {
                auto t = inputs[i];
                unpackNC16(t->host<float>(), mProxyIn[i]->host<float>(), t->length(0), t->length(1),
                           (int64_t)t->length(2) * t->length(3));
            }
        }
        auto code = mInner->onExecute(mIns, mOuts);
        if (code != NO_ERROR) {
            return code;
        }
        for (size_t i = 0; i < outputs.size(); ++i) {
            if (mProxyOut[i]) {
                auto t = outputs[i];
                packNC16(mProxyOut[i]->host<float>(), t->host<float>(), t->length(0), t->length(1),
                         (int64_t)t->length(2) * t->length(3));
            }
        }
        return NO_ERROR;
    }

    const char* algorithm() const override {
        return mInner ? mInner->algorithm() : "reference";
    }

private:
    const Schema::Op* mOp;
    Mode mMode;
    std::unique_ptr<Execution> mInner;
    std::vector<std::unique_ptr<Tensor>> mOwned;
    std::vector<Tensor*> mProxyIn, mProxyOut;
    std::vector<Tensor*> mIns, mOuts;
};

} // namespace

Execution* createPackedExecution(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                 const Schema::Op* op, Backend* backend) {
    Execution* native = nullptr;
    switch (op->type()) {
        case Schema::OpType::Convolution:
            native = createPackedConvolution(inputs, outputs, op, backend);
            break;
        case Schema::OpType::Pooling:
            native = createPackedPooling(inputs, outputs, op, backend);
            break;
        case Schema::OpType::BinaryOp:
            native = createPackedBinary(inputs, outputs, op, backend);
            break;
        case Schema::OpType::Concat:
            native = createPackedConcat(inputs, outputs, op, backend);
            break;
        default:
            break;
    }
    if (native) {
        return native;
    }
    bool flat = op->type() == Schema::OpType::UnaryOp || op->type() == Schema::OpType::BinaryOp;
    return new CPUPackedAdapter(backend, op, flat ? CPUPackedAdapter::FLAT : CPUPackedAdapter::CONVERT);
}

// Native packed kernels not written yet for these ops: the adapter runs them. (Each is replaced by
// a definition in its own file.)

// -- convolution (dense: tile kernel; calls createPackedDepthwise / createPackedWinograd) --
// (until the dense packed convolution lands: depthwise only)
Execution* createPackedConvolution(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                   const Schema::Op* op, Backend* backend) {
    ConvAttrs attrs;
    attrs.load(op->param_as_ConvParam());
    return createPackedDepthwise(inputs, outputs, attrs, backend);
}

// -- Winograd --
Execution* createPackedWinograd(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const ConvAttrs&,
                                Backend*) {
    return nullptr;
}

// -- binary --
Execution* createPackedBinary(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op*,
                              Backend*) {
    return nullptr;
}

// -- concat --
Execution* createPackedConcat(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op*,
                              Backend*) {
    return nullptr;
}

} // namespace MNN
