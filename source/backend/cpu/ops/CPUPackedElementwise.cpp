// Packed-layout (NC16HW16) BinaryOp with a per-channel operand ([N|1, C, 1, 1], e.g. the
// squeeze-excite scale) and Concat along channels of parts that start on a 16-channel block
// (others: CPUPackedGather.cpp). Same-shaped BinaryOps run the plain SIMD kernel
// over the padded buffer (the adapter in CPUPackedOps.cpp).
#include <string.h>
#include <algorithm>
#include "CPUPackedOps.hpp"
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/PackedLayout.hpp"
#include "core/TensorUtils.hpp"
#include "shape/ShapeUtils.hpp"

namespace MNN {

static bool float4d(const Tensor* t) {
    return t && t->dimensions() == 4 && t->getType() == halide_type_of<float>();
}

// the per-channel operand of a packed BinaryOp: 1 (inputs[1]) or 0 (inputs[0]); -1 if none fits
static int perChannelOperand(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
    if (inputs.size() != 2 || outputs.size() != 1 || !float4d(inputs[0]) || !float4d(inputs[1]) ||
        !float4d(outputs[0])) {
        return -1;
    }
    auto y = outputs[0];
    for (int big = 0; big < 2; ++big) {
        auto a = inputs[big];
        auto s = inputs[1 - big];
        bool full = true;
        for (int i = 0; i < 4; ++i) {
            full = full && a->length(i) == y->length(i);
        }
        if (full && (s->length(0) == 1 || s->length(0) == y->length(0)) && s->length(1) == y->length(1) &&
            s->length(2) == 1 && s->length(3) == 1) {
            return 1 - big;
        }
    }
    return -1;
}

static bool binaryOpVectorisable(const Schema::Op* op) {
    auto p = op->param_as_BinaryParam();
    if (!p) {
        return false;
    }
    switch (p->type()) {
        case Schema::BinaryOpType::ADD:
        case Schema::BinaryOpType::SUB:
        case Schema::BinaryOpType::MUL:
        case Schema::BinaryOpType::DIV:
        case Schema::BinaryOpType::MAXIMUM:
        case Schema::BinaryOpType::MINIMUM:
            return true;
        default:
            return false;
    }
}

bool packedBinaryBroadcastSupported(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                    const std::vector<Tensor*>& outputs) {
    return binaryOpVectorisable(op) && perChannelOperand(inputs, outputs) >= 0;
}

namespace {

class CPUPackedBinaryChannel : public Execution {
public:
    CPUPackedBinaryChannel(Backend* b, Schema::BinaryOpType type) : Execution(b), mType(type) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        mSmall = perChannelOperand(inputs, outputs);
        if (mSmall < 0) {
            return NOT_SUPPORT;
        }
        auto y = outputs[0];
        mBatch = y->length(0);
        mBlocks = packedBlocks(y->length(1));
        mPlane = (int64_t)y->length(2) * y->length(3);
        mSmallBatch = inputs[mSmall]->length(0);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const float* big = inputs[1 - mSmall]->host<float>();
        const float* small = inputs[mSmall]->host<float>();
        float* y = outputs[0]->host<float>();
        const bool smallFirst = mSmall == 0;
        auto task = [&](int i) {
            const int n = i / mBlocks, b = i % mBlocks;
            const float* s = small + ((int64_t)(mSmallBatch == 1 ? 0 : n) * mBlocks + b) * kCpuPack;
            const int64_t off = (int64_t)i * mPlane * kCpuPack;
            run(big + off, s, y + off, smallFirst);
        };
        parallelFor(static_cast<CPUBackend*>(mBackend)->threadPool(), mBatch * mBlocks, task);
        return NO_ERROR;
    }
    const char* algorithm() const override {
        return "packed-binary-channel";
    }

private:
    template <typename F>
    void loop(const float* a, const float* s, float* y, F f) const {
        float sv[kCpuPack];
        ::memcpy(sv, s, sizeof(sv));
        for (int64_t p = 0; p < mPlane; ++p) {
            for (int l = 0; l < kCpuPack; ++l) {
                y[p * kCpuPack + l] = f(a[p * kCpuPack + l], sv[l]);
            }
        }
    }
    void run(const float* a, const float* s, float* y, bool smallFirst) const {
        switch (mType) {
            case Schema::BinaryOpType::ADD:
                return loop(a, s, y, [](float x, float c) { return x + c; });
            case Schema::BinaryOpType::MUL:
                return loop(a, s, y, [](float x, float c) { return x * c; });
            case Schema::BinaryOpType::SUB:
                return smallFirst ? loop(a, s, y, [](float x, float c) { return c - x; })
                                  : loop(a, s, y, [](float x, float c) { return x - c; });
            case Schema::BinaryOpType::DIV:
                return smallFirst ? loop(a, s, y, [](float x, float c) { return c / x; })
                                  : loop(a, s, y, [](float x, float c) { return x / c; });
            // NaN propagates from either side, as the plain kernels do
            case Schema::BinaryOpType::MAXIMUM:
                return loop(a, s, y, [](float x, float c) { return (x != x || c != c) ? x + c : (x > c ? x : c); });
            case Schema::BinaryOpType::MINIMUM:
                return loop(a, s, y, [](float x, float c) { return (x != x || c != c) ? x + c : (x < c ? x : c); });
            default:
                return;
        }
    }
    Schema::BinaryOpType mType;
    int mSmall = -1;
    int mBatch = 0, mBlocks = 0, mSmallBatch = 1;
    int64_t mPlane = 0;
};

bool concatAxisIsChannels(const Schema::Op* op, const std::vector<Tensor*>& outputs) {
    auto p = op->param_as_AxisParam();
    int axis = p ? p->axis() : 0;
    return ShapeUtils::normalizeAxis(axis, 4) == 1 && float4d(outputs[0]);
}

class CPUPackedConcat : public Execution {
public:
    explicit CPUPackedConcat(Backend* b) : Execution(b) {
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto y = outputs[0];
        mBatch = y->length(0);
        mPlane = (int64_t)y->length(2) * y->length(3);
        mOutBlocks = packedBlocks(y->length(1));
        mParts.clear();
        int c0 = 0;
        for (auto t : inputs) {
            if (!float4d(t) || !isCpuPacked(t)) {
                return NOT_SUPPORT;
            }
            if (c0 % kCpuPack != 0) {
                return NOT_SUPPORT;
            }
            mParts.push_back({c0, t->length(1)});
            c0 += t->length(1);
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        float* y = outputs[0]->host<float>();
        const int parts = (int)inputs.size();
        auto task = [&](int i) {
            const int n = i / parts, k = i % parts;
            const Part& part = mParts[k];
            const int blocks = packedBlocks(part.channels);
            const float* x = inputs[k]->host<float>() + (int64_t)n * blocks * mPlane * kCpuPack;
            float* yn = y + (int64_t)n * mOutBlocks * mPlane * kCpuPack;
            // whole blocks (parts start on a block: CPUPackedGather.cpp does the others); the last
            // one may be partial: only its valid lanes are copied
            const int full = part.channels / kCpuPack;
            float* dst = yn + (int64_t)(part.first / kCpuPack) * mPlane * kCpuPack;
            ::memcpy(dst, x, (size_t)full * mPlane * kCpuPack * sizeof(float));
            const int rest = part.channels - full * kCpuPack;
            if (rest) {
                copyLanes(x + (int64_t)full * mPlane * kCpuPack, dst + (int64_t)full * mPlane * kCpuPack, rest);
            }
        };
        // tasks of one image write disjoint blocks
        parallelFor(static_cast<CPUBackend*>(mBackend)->threadPool(), mBatch * parts, task);
        return NO_ERROR;
    }
    const char* algorithm() const override {
        return "packed-concat";
    }

private:
    struct Part {
        int first;
        int channels;
    };
    void copyLanes(const float* s, float* d, int lanes) const {
        for (int64_t p = 0; p < mPlane; ++p) {
            for (int l = 0; l < lanes; ++l) {
                d[p * kCpuPack + l] = s[p * kCpuPack + l];
            }
        }
    }
    std::vector<Part> mParts;
    int mBatch = 0, mOutBlocks = 0;
    int64_t mPlane = 0;
};

} // namespace

bool packedConcatSupported(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                           const std::vector<Tensor*>& outputs) {
    if (op->type() != Schema::OpType::Concat || outputs.size() != 1 || !concatAxisIsChannels(op, outputs)) {
        return false;
    }
    for (auto t : inputs) {
        if (!float4d(t)) {
            return false;
        }
    }
    return !inputs.empty();
}

Execution* createPackedBinary(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                              const Schema::Op* op, Backend* backend) {
    if (!packedBinaryBroadcastSupported(op, inputs, outputs)) {
        return nullptr;  // same-shaped operands: the plain kernel over the padded buffers
    }
    return new CPUPackedBinaryChannel(backend, op->param_as_BinaryParam()->type());
}

Execution* createPackedConcat(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                              const Schema::Op* op, Backend* backend) {
    if (!packedConcatSupported(op, inputs, outputs)) {
        return nullptr;
    }
    return new CPUPackedConcat(backend);
}

} // namespace MNN
