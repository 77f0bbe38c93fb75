// Reference ChannelShuffle (plain NCHW, any element type): the inputs concatenated along channels
// (C channels), output channel j * group + i of that is channel i * (C / group) + j, split into the
// outputs in equal parts; each (image, channel) plane is one contiguous copy.
#include <string.h>
#include <vector>
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

class CPUChannelShuffle : public Execution {
public:
    CPUChannelShuffle(Backend* b, int group) : Execution(b), mGroup(group) {}
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        mChannels = 0;
        mSource.clear();
        for (size_t k = 0; k < inputs.size(); ++k) {
            if (!inputs[k] || inputs[k]->dimensions() != 4) {
                return INVALID_VALUE;  // the shape function has logged it
            }
            for (int c = 0; c < inputs[k]->length(1); ++c) {
                mSource.emplace_back((int)k, c);
            }
            mChannels += inputs[k]->length(1);
        }
        const int parts = (int)outputs.size();
        if (mGroup < 1 || parts < 1 || mChannels % mGroup != 0 || mChannels % parts != 0) {
            return INVALID_VALUE;
        }
        mBatch = inputs[0]->length(0);
        mPlaneBytes = (size_t)inputs[0]->length(2) * inputs[0]->length(3) * inputs[0]->getType().bytes();
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const int per = mChannels / mGroup, part = mChannels / (int)outputs.size();
        for (int n = 0; n < mBatch; ++n) {
            for (int o = 0; o < mChannels; ++o) {
                const auto& s = mSource[(size_t)((o % mGroup) * per + o / mGroup)];
                const Tensor* x = inputs[(size_t)s.first];
                const uint8_t* src = x->host<uint8_t>() + ((size_t)n * x->length(1) + s.second) * mPlaneBytes;
                uint8_t* dst = outputs[(size_t)(o / part)]->host<uint8_t>() + ((size_t)n * part + o % part) * mPlaneBytes;
                ::memcpy(dst, src, mPlaneBytes);
            }
        }
        return NO_ERROR;
    }

private:
    int mGroup;
    int mBatch = 0, mChannels = 0;
    size_t mPlaneBytes = 0;
    std::vector<std::pair<int, int>> mSource;  // concatenated channel -> (input, channel)
};

static Execution* createChannelShuffle(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                       Backend* backend) {
    auto p = op->param_as_ChannelShuffleParam();
    return new CPUChannelShuffle(backend, p ? p->group() : 0);
}

}  // namespace MNN

MNN_REGISTER_CPU(ChannelShuffle, createChannelShuffle)
