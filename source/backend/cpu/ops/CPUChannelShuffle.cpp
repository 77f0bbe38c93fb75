// Reference ChannelShuffle (plain NCHW, any element type): output channel j * group + i is input
// channel i * (C / group) + j; each (image, channel) plane is one contiguous copy.
#include <string.h>
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

class CPUChannelShuffle : public Execution {
public:
    CPUChannelShuffle(Backend* b, int group) : Execution(b), mGroup(group) {}
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto x = inputs[0];
        if (x->dimensions() != 4 || mGroup < 1 || x->length(1) % mGroup != 0) {
            return INVALID_VALUE;  // the shape function has logged it
        }
        mBatch = x->length(0);
        mChannels = x->length(1);
        mPlaneBytes = (size_t)x->length(2) * x->length(3) * x->getType().bytes();
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        auto src = inputs[0]->host<uint8_t>();
        auto dst = outputs[0]->host<uint8_t>();
        const int per = mChannels / mGroup;
        for (int n = 0; n < mBatch; ++n) {
            for (int o = 0; o < mChannels; ++o) {
                const int c = (o % mGroup) * per + o / mGroup;
                const size_t img = (size_t)n * mChannels;
                ::memcpy(dst + (img + o) * mPlaneBytes, src + (img + c) * mPlaneBytes, mPlaneBytes);
            }
        }
        return NO_ERROR;
    }

private:
    int mGroup;
    int mBatch = 0, mChannels = 0;
    size_t mPlaneBytes = 0;
};

static Execution* createChannelShuffle(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                       Backend* backend) {
    auto p = op->param_as_ChannelShuffleParam();
    return new CPUChannelShuffle(backend, p ? p->group() : 0);
}

}  // namespace MNN

MNN_REGISTER_CPU(ChannelShuffle, createChannelShuffle)
