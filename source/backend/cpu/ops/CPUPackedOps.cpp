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
    // a Reduce over H and W: its output ([N, C] or [N, C, 1, 1]) may be 2-D
    if (op->type() == Schema::OpType::Reduce) {
        return packedReduceSupported(op, inputs, outputs) ? Backend::PACKED_MIXED : Backend::PACKED_NONE;
    }
    // one output, except ChannelShuffle (equal channel parts) and PointwiseDepthwise (Y and its mean M)
    const bool pwdwMean =
        op->type() == Schema::OpType::PointwiseDepthwise && outputs.size() == 2 && isFloat4d(outputs[1]);
    if (inputs.empty() || outputs.empty() || !isFloat4d(outputs[0]) ||
        (outputs.size() != 1 && op->type() != Schema::OpType::ChannelShuffle && !pwdwMean)) {
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
        case Schema::OpType::ConvolutionPool: {
            // X, W, [B] with constant weights: the banded kernel, the packed pair or the adapter
            if (inputs.size() < 2 || inputs.size() > 3 || !isFloat4d(inputs[0]) || !isConstant(inputs[1]) ||
                (inputs.size() > 2 && inputs[2] && !isConstant(inputs[2]))) {
                return Backend::PACKED_NONE;
            }
            return Backend::PACKED_MIXED;
        }
        case Schema::OpType::PointwiseDepthwise: {
            // X, W1, [B1], W2, [B2] with constant weights and biases: the banded kernel or the adapter
            if (inputs.size() < 4 || inputs.size() > 5 || !isFloat4d(inputs[0]) || !isConstant(inputs[1]) ||
                !isConstant(inputs[3]) || (inputs[2] && !isConstant(inputs[2])) ||
                (inputs.size() > 4 && inputs[4] && !isConstant(inputs[4]))) {
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
            if (packedBinaryBroadcastSupported(op, inputs, outputs)) {
                return Backend::PACKED_UNIFORM;
            }
            // same-shaped operands: the plain kernel runs over the padded buffer
            if (inputs.size() != 2 || !isFloat4d(inputs[0]) || !isFloat4d(inputs[1]) ||
                !sameShape(inputs[0], outputs[0]) || !sameShape(inputs[1], outputs[0])) {
                return Backend::PACKED_NONE;
            }
            return Backend::PACKED_UNIFORM;
        }
        case Schema::OpType::Concat:
            return packedConcatSupported(op, inputs, outputs) ? Backend::PACKED_UNIFORM : Backend::PACKED_NONE;
        case Schema::OpType::Pooling:
            return packedPoolingSupported(op, inputs, outputs) ? Backend::PACKED_UNIFORM : Backend::PACKED_NONE;
        case Schema::OpType::Slice:
        case Schema::OpType::ChannelShuffle:
            return packedGatherSupported(op, inputs, outputs) ? Backend::PACKED_UNIFORM : Backend::PACKED_NONE;
        default:
            return Backend::PACKED_NONE;
    }
}

namespace {

/**
 * Runs an inner Execution on other views of an op's tensors. CONVERT: a plain Execution; packed
 * inputs are unpacked into plain scratch tensors before, packed outputs packed from plain scratch
 * after. FLAT (elementwise ops whose tensors all have one shape): the plain kernel sees each packed
 * tensor as a 1-D tensor over its whole padded buffer. EDGES (PACKED_UNIFORM ops with some plain
 * 4-D float tensors): the packed Execution; plain inputs are packed into scratch before, plain
 * outputs unpacked from packed scratch after.
 */
class CPUPackedAdapter : public Execution {
public:
    enum Mode { CONVERT, FLAT, EDGES };
    CPUPackedAdapter(Backend* backend, Mode mode, const std::vector<Tensor*>& inputs,
                     const std::vector<Tensor*>& outputs)
        : Execution(backend), mMode(mode) {
        mProxyIn.assign(inputs.size(), nullptr);
        mProxyOut.assign(outputs.size(), nullptr);
        mIns = inputs;
        mOuts = outputs;
        for (size_t i = 0; i < inputs.size(); ++i) {
            if (needsProxy(inputs[i])) {
                mProxyIn[i] = mIns[i] = makeProxy(inputs[i]);
            }
        }
        for (size_t i = 0; i < outputs.size(); ++i) {
            if (needsProxy(outputs[i])) {
                mProxyOut[i] = mOuts[i] = makeProxy(outputs[i]);
            }
        }
    }
    /** the plain Execution, made once (Executions must not keep the op: releaseModel frees it) */
    bool init(const Schema::Op* op) {
        mInner.reset(mBackend->onCreate(mIns, mOuts, op));
        return mInner != nullptr;
    }

    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        for (size_t i = 0; i < inputs.size() && i < mProxyIn.size(); ++i) {
            if (mProxyIn[i]) {
                shapeProxy(inputs[i], mProxyIn[i]);
            } else {
                mIns[i] = inputs[i];
            }
        }
        for (size_t i = 0; i < outputs.size() && i < mProxyOut.size(); ++i) {
            if (mProxyOut[i]) {
                shapeProxy(outputs[i], mProxyOut[i]);
            } else {
                mOuts[i] = outputs[i];
            }
        }
        if (mMode == FLAT) {
            return mInner->onResize(mIns, mOuts);
        }
        // the plain copies are scratch of this op: planned here, reused by later ops
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
        const bool toPlain = mMode == CONVERT;
        auto pool = static_cast<CPUBackend*>(mBackend)->threadPool();
        // pack: plain src -> packed dst, over every (image, block)
        auto convert = [&](const Tensor* shape, const float* src, float* dst, bool pack) {
            const int blocks = packedBlocks(shape->length(1));
            PackedRepackJob job{src, dst, shape->length(1), blocks, (int64_t)shape->length(2) * shape->length(3), pack};
            runRepack(pool, job, shape->length(0));
        };
        for (size_t i = 0; i < inputs.size(); ++i) {
            if (mProxyIn[i]) {
                convert(inputs[i], inputs[i]->host<float>(), mProxyIn[i]->host<float>(), !toPlain);
            }
        }
        auto code = mInner->onExecute(mIns, mOuts);
        if (code != NO_ERROR) {
            return code;
        }
        for (size_t i = 0; i < outputs.size(); ++i) {
            if (mProxyOut[i]) {
                convert(outputs[i], mProxyOut[i]->host<float>(), outputs[i]->host<float>(), toPlain);
            }
        }
        return NO_ERROR;
    }

    const char* algorithm() const override {
        return mInner ? mInner->algorithm() : "reference";
    }

private:
    bool needsProxy(const Tensor* t) const {
        if (!t) {
            return false;
        }
        if (mMode == EDGES) {
            return t->dimensions() == 4 && t->getType() == halide_type_of<float>() && !isCpuPacked(t);
        }
        return isCpuPacked(t);
    }
    Tensor* makeProxy(const Tensor* t) {
        Tensor* p = new Tensor(mMode == FLAT ? 1 : 4, Tensor::CAFFE);
        if (mMode == EDGES) {
            setCpuPacked(p, true);
        }
        TensorUtils::describe(p)->name = TensorUtils::describe(t)->name;
        mOwned.emplace_back(p);
        shapeProxy(t, p);
        return p;
    }
    // FLAT: the whole padded buffer as 1-D; CONVERT: the same NCHW shape, plain
    void shapeProxy(const Tensor* t, Tensor* p) const {
        p->buffer().type = t->getType();
        if (mMode == FLAT) {
            TensorUtils::setShape(p, {(int)(TensorUtils::byteSize(t) / (int64_t)sizeof(float))});
        } else {
            TensorUtils::setShape(p, TensorUtils::shape(t));
        }
    }

    Mode mMode;
    std::unique_ptr<Execution> mInner;
    std::vector<std::unique_ptr<Tensor>> mOwned;
    std::vector<Tensor*> mProxyIn, mProxyOut;
    std::vector<Tensor*> mIns, mOuts;
};

} // namespace

Execution* createPackedExecution(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                 const Schema::Op* op, Backend* backend) {
    if (cpuPackedSupport(op, inputs, outputs) == Backend::PACKED_UNIFORM) {
        // mixed layouts: run the kernel on whichever side converts fewer bytes (packed: plain 4-D
        // float tensors get packed copies at the edges; plain: packed ones get plain copies)
        int64_t plainBytes = 0, packedBytes = 0;
        auto count = [&](const Tensor* t) {
            if (t && t->dimensions() == 4 && t->getType() == halide_type_of<float>()) {
                (isCpuPacked(t) ? packedBytes : plainBytes) += TensorUtils::byteSize(t);
            }
        };
        for (auto t : inputs) {
            count(t);
        }
        for (auto t : outputs) {
            count(t);
        }
        if (plainBytes > 0) {
            const bool packedSide = plainBytes <= packedBytes;
            const auto mode = packedSide ? CPUPackedAdapter::EDGES : CPUPackedAdapter::CONVERT;
            std::unique_ptr<CPUPackedAdapter> edges(new CPUPackedAdapter(backend, mode, inputs, outputs));
            if (!edges->init(op)) {
                return nullptr;
            }
            return edges.release();
        }
    }
    Execution* native = nullptr;
    switch (op->type()) {
        case Schema::OpType::Convolution:
            native = createPackedConvolution(inputs, outputs, op, backend);
            break;
        case Schema::OpType::PointwiseDepthwise:
            native = createPackedPointwiseDepthwise(inputs, outputs, op, backend);
            break;
        case Schema::OpType::ConvolutionPool:
            native = createPackedConvolutionPool(inputs, outputs, op, backend);
            break;
        case Schema::OpType::Pooling:
            native = createPackedPooling(inputs, outputs, op, backend);
            break;
        case Schema::OpType::BinaryOp:
            native = createPackedBinary(inputs, outputs, op, backend);
            break;
        case Schema::OpType::Concat: {
            // parts starting inside a 16-channel block: the gather plan; else whole-block copies
            bool aligned = true;
            int first = 0;
            for (auto t : inputs) {
                aligned = aligned && first % kCpuPack == 0;
                first += t && t->dimensions() == 4 ? t->length(1) : 0;
            }
            native = aligned ? createPackedConcat(inputs, outputs, op, backend)
                             : createPackedGather(inputs, outputs, op, backend);
            break;
        }
        case Schema::OpType::Slice:
        case Schema::OpType::ChannelShuffle:
            native = createPackedGather(inputs, outputs, op, backend);
            break;
        case Schema::OpType::Reduce:
            native = createPackedReduce(inputs, outputs, op, backend);
            break;
        default:
            break;
    }
    if (native) {
        return native;
    }
    bool flat = op->type() == Schema::OpType::UnaryOp || op->type() == Schema::OpType::BinaryOp;
    std::unique_ptr<CPUPackedAdapter> adapter(
        new CPUPackedAdapter(backend, flat ? CPUPackedAdapter::FLAT : CPUPackedAdapter::CONVERT, inputs, outputs));
    if (!adapter->init(op)) {
        return nullptr;
    }
    return adapter.release();
}

// The native packed factories live next to their kernels: CPUConvolutionPacked.cpp (dense),
// CPUConvolutionPackedDepthwise.cpp, CPUConvolutionPackedWinograd.cpp, CPUPoolingPacked.cpp,
// CPUPackedElementwise.cpp (per-channel BinaryOp, Concat of aligned parts), CPUPackedGather.cpp
// (Slice, ChannelShuffle, Concat of unaligned parts), CPUReducePacked.cpp (Reduce over H and W).

} // namespace MNN
