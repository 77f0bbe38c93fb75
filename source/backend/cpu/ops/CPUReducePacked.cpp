// Reduce over H and W of a 4-D float tensor on the packed layout (NC16HW16): MEAN, SUM, MAX and MIN
// (a global pool written as ReduceMean(axes = [2, 3]), as torchvision's ShuffleNet and many exports
// end). Each (image, 16-channel block) sums or compares its plane's 16-lane rows in float lanes;
// the output is [N, C] or [N, C, 1, 1], plain or (4-D) packed with the lanes past C written as 0.
// Without it the producer's packed output was unpacked and the reference kernel walked offset
// tables in double (shufflenet_v2's ReduceMean took as long as a small convolution).
// Semantics as the reference: MAX / MIN propagate NaN, MEAN divides by H * W (NaN for an empty
// plane), SUM / MEAN of an empty plane are 0 / NaN, MAX / MIN of one -inf / +inf.
#include <math.h>
#include <limits>
#include "CPUPackedOps.hpp"
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/PackedLayout.hpp"
#include "core/TensorUtils.hpp"
#include "shape/ShapeDataOps.hpp"
#include "shape/ShapeUtils.hpp"

namespace MNN {

namespace {

/**
 * whether a Reduce op reduces exactly axes 2 and 3 of a 4-D input: its axes from the parameter or a
 * constant integer input 1 (ShapeReduce's reading), normalised as the shape function does
 */
bool reducesHw(const Schema::Op* op, const std::vector<Tensor*>& inputs) {
    auto p = op->param_as_ReduceParam();
    if (!p) {
        return false;
    }
    std::vector<int64_t> axes;
    if (inputs.size() > 1 && inputs[1]) {
        const Tensor* a = inputs[1];
        const auto t = a->getType();
        if (TensorUtils::describe(a)->usage != Tensor::InsideDescribe::CONSTANT || t.code != halide_type_int ||
            (t.bits != 32 && t.bits != 64) || a->dimensions() > 1) {
            return false;
        }
        axes = ShapeUtils::readInts(a);
    } else if (p->axes()) {
        axes.assign(p->axes()->begin(), p->axes()->end());
    }
    std::vector<int> n;
    if (!DataOps::normalizeAxes(axes, 4, &n) || n.size() != 2) {
        return false;
    }
    return (n[0] == 2 && n[1] == 3) || (n[0] == 3 && n[1] == 2);
}

struct PackedReduceJob {
    const float* x;
    float* y;
    int64_t plane;  // H * W
    int channels, blocks;
    bool outPacked;
    Schema::ReduceType type;
    void operator()(int t) const {
        const int n = t / blocks, b = t % blocks;
        const float* xp = x + (int64_t)t * plane * kCpuPack;
        float acc[kCpuPack];
        const bool isMax = type == Schema::ReduceType::MAXIMUM, isMin = type == Schema::ReduceType::MINIMUM;
        if (isMax || isMin) {
            // NaN sticks: once a lane holds NaN neither comparison replaces it
            const float init = isMax ? -std::numeric_limits<float>::infinity() : std::numeric_limits<float>::infinity();
            for (int l = 0; l < kCpuPack; ++l) {
                acc[l] = init;
            }
            for (int64_t p = 0; p < plane; ++p) {
                const float* v = xp + p * kCpuPack;
                for (int l = 0; l < kCpuPack; ++l) {
                    const float a = acc[l];
                    const bool take = v[l] != v[l] || (a == a && (isMax ? v[l] > a : v[l] < a));
                    acc[l] = take ? v[l] : a;
                }
            }
        } else {
            for (int l = 0; l < kCpuPack; ++l) {
                acc[l] = 0.0f;
            }
            for (int64_t p = 0; p < plane; ++p) {
                const float* v = xp + p * kCpuPack;
                for (int l = 0; l < kCpuPack; ++l) {
                    acc[l] += v[l];
                }
            }
            if (type == Schema::ReduceType::MEAN) {
                const float inv = plane > 0 ? 1.0f / (float)plane : NAN;
                for (int l = 0; l < kCpuPack; ++l) {
                    acc[l] = plane > 0 ? acc[l] * inv : NAN;
                }
            }
        }
        const int lanes = std::min(kCpuPack, channels - b * kCpuPack);
        if (outPacked) {
            float* yb = y + (int64_t)t * kCpuPack;
            for (int l = 0; l < kCpuPack; ++l) {
                yb[l] = l < lanes ? acc[l] : 0.0f;
            }
        } else {
            float* yb = y + (int64_t)n * channels + b * kCpuPack;
            for (int l = 0; l < lanes; ++l) {
                yb[l] = acc[l];
            }
        }
    }
};

class CPUReducePacked : public Execution {
public:
    CPUReducePacked(Backend* b, Schema::ReduceType type) : Execution(b), mType(type) {
        mPool = static_cast<CPUBackend*>(b)->threadPool();
    }
    const char* algorithm() const override {
        return "packed-reduce-hw";
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const Tensor* x = inputs[0];
        const Tensor* y = outputs[0];
        const int64_t n = x->length(0), c = x->length(1);
        if (TensorUtils::elementCount(y) != n * c || (int64_t)n * packedBlocks((int)c) > (1 << 30)) {
            return error(INVALID_VALUE, "Reduce %s: output %s does not hold one value per channel of %s",
                         TensorUtils::describe(y)->name.c_str(), TensorUtils::shapeString(y).c_str(),
                         TensorUtils::shapeString(x).c_str());
        }
        mJob.plane = (int64_t)x->length(2) * x->length(3);
        mJob.channels = (int)c;
        mJob.blocks = packedBlocks(mJob.channels);
        mJob.outPacked = isCpuPacked(y);
        mJob.type = mType;
        mTasks = (int)n * mJob.blocks;
        // small planes (a 7x7 head) in the calling thread: the pool's hand-off costs more than the sums
        mInline = mJob.plane * mTasks < (1 << 16);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        PackedReduceJob job = mJob;
        job.x = inputs[0]->host<float>();
        job.y = outputs[0]->host<float>();
        parallelFor(mInline ? nullptr : mPool, mTasks, job);
        return NO_ERROR;
    }

private:
    Schema::ReduceType mType;
    ThreadPool* mPool = nullptr;
    PackedReduceJob mJob{};  // the geometry; x and y set per run
    int mTasks = 0;
    bool mInline = false;
};

}  // namespace

bool packedReduceSupported(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                           const std::vector<Tensor*>& outputs) {
    if (!op || op->type() != Schema::OpType::Reduce || inputs.empty() || outputs.size() != 1 || !inputs[0] ||
        inputs[0]->dimensions() != 4 || inputs[0]->getType() != halide_type_of<float>() ||
        outputs[0]->getType() != halide_type_of<float>()) {
        return false;
    }
    auto p = op->param_as_ReduceParam();
    if (!p) {
        return false;
    }
    switch (p->type()) {
        case Schema::ReduceType::MEAN:
        case Schema::ReduceType::SUM:
        case Schema::ReduceType::MAXIMUM:
        case Schema::ReduceType::MINIMUM:
            break;
        default:
            return false;
    }
    // [N, C] or [N, C, 1, 1]
    const Tensor* y = outputs[0];
    const bool shapeOk = (y->dimensions() == 2 && !p->keepDims()) ||
                         (y->dimensions() == 4 && p->keepDims() && y->length(2) == 1 && y->length(3) == 1);
    return shapeOk && y->length(0) == inputs[0]->length(0) && y->length(1) == inputs[0]->length(1) &&
           reducesHw(op, inputs);
}

Execution* createPackedReduce(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                              const Schema::Op* op, Backend* backend) {
    // a plain input (the output alone packed) goes through the converting adapter
    if (!packedReduceSupported(op, inputs, outputs) || !isCpuPacked(inputs[0])) {
        return nullptr;
    }
    return new CPUReducePacked(backend, op->param_as_ReduceParam()->type());
}

}  // namespace MNN
