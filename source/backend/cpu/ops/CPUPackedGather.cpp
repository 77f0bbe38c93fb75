// Channel-axis data movement on the packed layout (NC16HW16) at any channel offsets: Slice on
// axis 1, ChannelShuffle (of several inputs' concatenation, into several equal outputs) and Concat
// along channels with parts that do not start on a 16-channel block. onResize builds one plan: for every output block, a short list of entries (input tensor,
// input block, lane permutation, lane mask); onExecute builds each output vector from its entries
// with the table's pgather kernel (masked permutes on AVX-512), lanes past C written as 0.
#include <stdio.h>
#include <algorithm>
#include "CPUPackedOps.hpp"
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/PackedLayout.hpp"
#include "core/TensorUtils.hpp"
#include "shape/ShapeDataOps.hpp"
#include "shape/ShapeUtils.hpp"

namespace MNN {

static bool float4d(const Tensor* t) {
    return t && t->dimensions() == 4 && t->getType() == halide_type_of<float>();
}

// the first input channel of a Slice that cuts only axis 1 of a 4-D tensor with step 1 (every
// parameter a constant); -1 otherwise
static int sliceChannelStart(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
    if (inputs.size() < 3 || outputs.size() != 1 || !float4d(inputs[0]) || !float4d(outputs[0])) {
        return -1;
    }
    for (size_t i = 1; i < inputs.size(); ++i) {
        if (inputs[i] && TensorUtils::describe(inputs[i])->usage != Tensor::InsideDescribe::CONSTANT) {
            return -1;
        }
        if (inputs[i] && (!DataOps::isIntegerType(inputs[i]->getType()) || inputs[i]->dimensions() > 1)) {
            return -1;
        }
    }
    if (!inputs[1] || !inputs[2]) {
        return -1;
    }
    DataOps::SliceRange r;
    auto dims = TensorUtils::shape(inputs[0]);
    auto msg = DataOps::computeSlice(dims, DataOps::valuesOf(inputs, 1), DataOps::valuesOf(inputs, 2),
                                     DataOps::valuesOf(inputs, 3), DataOps::valuesOf(inputs, 4), &r);
    if (!msg.empty() || r.outDims.size() != 4) {
        return -1;
    }
    for (int a : {0, 2, 3}) {
        if (r.start[a] != 0 || r.outDims[a] != dims[a] || outputs[0]->length(a) != dims[a]) {
            return -1;
        }
    }
    if (r.step[1] != 1 || r.outDims[1] != outputs[0]->length(1) || r.start[1] < 0 ||
        r.start[1] + r.outDims[1] > dims[1]) {
        return -1;
    }
    return (int)r.start[1];
}

// the group of a ChannelShuffle whose inputs and outputs are 4-D float tensors of one N, H, W
// (several inputs: shuffled as their concatenation; several outputs: equal parts); 0 otherwise
static int shuffleGroup(const Schema::Op* op, const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
    auto p = op->param_as_ChannelShuffleParam();
    const int g = p ? p->group() : 0;
    if (inputs.empty() || outputs.empty() || g < 1 || !float4d(inputs[0])) {
        return 0;
    }
    auto same = [&](const Tensor* t) {
        return float4d(t) && t->length(0) == inputs[0]->length(0) && t->length(2) == inputs[0]->length(2) &&
               t->length(3) == inputs[0]->length(3);
    };
    int64_t channels = 0, outChannels = 0;
    for (auto t : inputs) {
        if (!same(t)) {
            return 0;
        }
        channels += t->length(1);
    }
    for (auto t : outputs) {
        if (!same(t) || t->length(1) != outputs[0]->length(1)) {
            return 0;
        }
        outChannels += t->length(1);
    }
    return channels == outChannels && channels % g == 0 ? g : 0;
}

bool packedGatherSupported(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                           const std::vector<Tensor*>& outputs) {
    switch (op->type()) {
        case Schema::OpType::Slice:
            return sliceChannelStart(inputs, outputs) >= 0;
        case Schema::OpType::ChannelShuffle:
            return shuffleGroup(op, inputs, outputs) > 0;
        default:
            return false;
    }
}

namespace {

class CPUPackedGather : public Execution {
public:
    CPUPackedGather(Backend* b, Schema::OpType type, int group) : Execution(b), mType(type), mGroup(group) {}
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto y = outputs[0];
        const bool shuffle = mType == Schema::OpType::ChannelShuffle;
        const int dataInputs = mType == Schema::OpType::Concat || shuffle ? (int)inputs.size() : 1;
        const int outs = shuffle ? (int)outputs.size() : 1;
        for (int m = 0; m < outs; ++m) {
            auto t = outputs[m];
            if (!float4d(t) || !isCpuPacked(t) || t->length(0) != y->length(0) || t->length(2) != y->length(2) ||
                t->length(3) != y->length(3)) {
                return NOT_SUPPORT;
            }
        }
        for (int k = 0; k < dataInputs; ++k) {
            auto x = inputs[k];
            if (!float4d(x) || !isCpuPacked(x) || x->length(0) != y->length(0) || x->length(2) != y->length(2) ||
                x->length(3) != y->length(3)) {
                return NOT_SUPPORT;
            }
        }
        // output channel o of output m comes from channel src[m][o].second of data input src[m][o].first
        std::vector<std::vector<std::pair<int, int>>> srcs((size_t)outs);
        const int channels = y->length(1);
        auto& src = srcs[0];
        if (mType == Schema::OpType::Slice) {
            const int start = sliceChannelStart(inputs, outputs);
            if (start < 0) {
                return NOT_SUPPORT;
            }
            for (int o = 0; o < channels; ++o) {
                src.emplace_back(0, start + o);
            }
        } else if (shuffle) {
            // the inputs' channels in concatenation order, shuffled, cut into the outputs
            std::vector<std::pair<int, int>> cat;
            for (int k = 0; k < dataInputs; ++k) {
                for (int c = 0; c < inputs[k]->length(1); ++c) {
                    cat.emplace_back(k, c);
                }
            }
            const int total = (int)cat.size();
            if (mGroup < 1 || total % mGroup != 0 || total != channels * outs) {
                return NOT_SUPPORT;
            }
            const int per = total / mGroup;
            for (int o = 0; o < total; ++o) {
                srcs[(size_t)(o / channels)].push_back(cat[(size_t)((o % mGroup) * per + o / mGroup)]);
            }
        } else {
            for (int k = 0; k < dataInputs; ++k) {
                for (int c = 0; c < inputs[k]->length(1) && (int)src.size() < channels; ++c) {
                    src.emplace_back(k, c);
                }
            }
            if ((int)src.size() != channels) {
                return NOT_SUPPORT;
            }
        }
        mBatch = y->length(0);
        mPlane = (int64_t)y->length(2) * y->length(3);
        mOutBlocksOf = packedBlocks(channels);
        mOutBlocks = mOutBlocksOf * outs;  // every output has as many blocks
        mInBlocks.assign(dataInputs, 0);
        for (int k = 0; k < dataInputs; ++k) {
            mInBlocks[k] = packedBlocks(inputs[k]->length(1));
        }
        // entries of each output block (output m's block ob is m * mOutBlocksOf + ob), in order of first use
        mEntryStart.assign(mOutBlocks + 1, 0);
        mEntryInput.clear();
        mEntryBlock.clear();
        mPerm.clear();
        mMask.clear();
        for (int gob = 0; gob < mOutBlocks; ++gob) {
            const auto& s = srcs[(size_t)(gob / mOutBlocksOf)];
            const int ob = gob % mOutBlocksOf;
            const int first = (int)mEntryInput.size();
            for (int l = 0; l < kCpuPack && ob * kCpuPack + l < channels; ++l) {
                const auto c = s[(size_t)(ob * kCpuPack + l)];
                int e = first;
                while (e < (int)mEntryInput.size() &&
                       (mEntryInput[e] != c.first || mEntryBlock[e] != c.second / kCpuPack)) {
                    ++e;
                }
                if (e == (int)mEntryInput.size()) {
                    mEntryInput.push_back(c.first);
                    mEntryBlock.push_back(c.second / kCpuPack);
                    mPerm.resize(mPerm.size() + kCpuPack, 0);
                    mMask.push_back(0);
                }
                mPerm[(size_t)e * kCpuPack + l] = c.second % kCpuPack;
                mMask[e] |= 1u << l;
            }
            mEntryStart[gob + 1] = (int)mEntryInput.size();
        }
        // work items: (chunk of positions, image, output block). At two or more threads a chunk per
        // thread at least, chunk-major: each thread's share (ThreadPool) is then a range of
        // positions over all blocks, as the 1x1 layers around it split theirs, rather than a range
        // of blocks over all positions (half of them written by the other core)
        auto pool = static_cast<CPUBackend*>(mBackend)->threadPool();
        const int threads = pool ? pool->threads() : 1;
        const int64_t items = (int64_t)mBatch * mOutBlocks;
        mChunks = 1;
        if (threads > 1 && items > 0) {
            const int64_t feed = items < 4 * threads ? (4 * threads + items - 1) / items : 1;
            mChunks = (int)std::max<int64_t>(1, std::min<int64_t>(mPlane, std::max<int64_t>(threads, feed)));
        }
        if (items * mChunks > (1 << 30)) {
            return error(INVALID_VALUE, "%s %s: %lld output blocks are too many for the packed kernel",
                         opTypeName(mType), TensorUtils::describe(y)->name.c_str(), (long long)items);
        }
        mChunkLen = (mPlane + mChunks - 1) / mChunks;
        mFuncs = &cpuCoreFunctions();
        const char* kind = mType == Schema::OpType::Slice            ? "packed-slice"
                           : mType == Schema::OpType::ChannelShuffle ? "packed-shuffle"
                                                                     : "packed-concat";
        snprintf(mAlgo, sizeof(mAlgo), "%s %s", kind, mFuncs->packedGatherName);
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto task = [&](int i) {
            const int chunk = i / (mBatch * mOutBlocks);
            const int rest = i % (mBatch * mOutBlocks);
            const int ob = rest % mOutBlocks, n = rest / mOutBlocks;
            const int64_t p0 = (int64_t)chunk * mChunkLen;
            const int64_t count = std::min<int64_t>(mPlane - p0, mChunkLen);
            if (count <= 0) {
                return;
            }
            const float* src[kCpuPack];
            const int e0 = mEntryStart[ob], entries = mEntryStart[ob + 1] - e0;
            for (int e = 0; e < entries; ++e) {
                const int k = mEntryInput[e0 + e];
                src[e] = inputs[k]->host<float>() +
                         (((int64_t)n * mInBlocks[k] + mEntryBlock[e0 + e]) * mPlane + p0) * kCpuPack;
            }
            PackedGatherBlock b;
            b.src = src;
            b.perm = mPerm.data() + (size_t)e0 * kCpuPack;
            b.mask = mMask.data() + e0;
            b.entries = entries;
            float* y = outputs[(size_t)(ob / mOutBlocksOf)]->host<float>();
            b.y = y + (((int64_t)n * mOutBlocksOf + ob % mOutBlocksOf) * mPlane + p0) * kCpuPack;
            b.count = count;
            mFuncs->packedGather(&b);
        };
        // tasks of at least kCopyTaskFloats output floats
        parallelForItems(static_cast<CPUBackend*>(mBackend)->threadPool(), (int64_t)mBatch * mOutBlocks * mChunks,
                         (double)mChunkLen * kCpuPack, kCopyTaskFloats, task);
        return NO_ERROR;
    }
    const char* algorithm() const override {
        return mAlgo;
    }

private:
    Schema::OpType mType;
    int mGroup;
    int mBatch = 0, mOutBlocks = 0, mOutBlocksOf = 0, mChunks = 1;  // all outputs' blocks, one output's
    int64_t mPlane = 0, mChunkLen = 0;
    std::vector<int> mInBlocks;
    std::vector<int> mEntryStart, mEntryInput, mEntryBlock;
    std::vector<int32_t> mPerm;
    std::vector<uint32_t> mMask;
    const CPUCoreFunctions* mFuncs = nullptr;
    char mAlgo[64] = "packed-gather";
};

}  // namespace

Execution* createPackedGather(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                              const Schema::Op* op, Backend* backend) {
    switch (op->type()) {
        case Schema::OpType::Slice:
            return packedGatherSupported(op, inputs, outputs) ? new CPUPackedGather(backend, op->type(), 0) : nullptr;
        case Schema::OpType::ChannelShuffle: {
            const int g = shuffleGroup(op, inputs, outputs);
            return g > 0 ? new CPUPackedGather(backend, op->type(), g) : nullptr;
        }
        case Schema::OpType::Concat:
            return packedConcatSupported(op, inputs, outputs) ? new CPUPackedGather(backend, op->type(), 0) : nullptr;
        default:
            return nullptr;
    }
}

}  // namespace MNN
