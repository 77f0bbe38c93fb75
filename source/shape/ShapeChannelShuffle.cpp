// ChannelShuffle (x1, ..., xn) -> (y1, ..., ym): the inputs (4-D [N, Ci, H, W], same N, H, W and type)
// concatenated along channels into C = sum Ci, shuffled (output channel j * group + i is channel
// i * (C / group) + j: what Reshape [N, g, C/g, H, W] -> Transpose 0,2,1,3,4 -> Reshape [N, C, H, W]
// computes), then split into m equal parts [N, C / m, H, W] (the converter fuses ShuffleNet's
// Concat -> shuffle -> Slice halves into one op).
#include "ShapeUtils.hpp"

namespace MNN {

static ErrorCode shapeChannelShuffle(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                     const std::vector<Tensor*>& outputs) {
    if (inputs.empty() || outputs.empty()) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs at least 1 input and 1 output");
    }
    auto p = op->param_as_ChannelShuffleParam();
    const int g = p ? p->group() : 0;
    if (g < 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "group %d must be >= 1", g);
    }
    auto x = inputs[0];
    int64_t channels = 0;
    for (size_t i = 0; i < inputs.size(); ++i) {
        auto t = inputs[i];
        if (!t || t->dimensions() != 4) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %d must be 4-D NCHW, got %s", (int)i,
                                     t ? TensorUtils::shapeString(t).c_str() : "none");
        }
        if (t->getType() != x->getType() || t->length(0) != x->length(0) || t->length(2) != x->length(2) ||
            t->length(3) != x->length(3)) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %d %s (%s) does not match input 0 %s (%s) in N, H, W or type",
                                     (int)i, TensorUtils::shapeString(t).c_str(), TensorUtils::typeName(t->getType()),
                                     TensorUtils::shapeString(x).c_str(), TensorUtils::typeName(x->getType()));
        }
        channels += t->length(1);
    }
    const int64_t parts = (int64_t)outputs.size();
    if (channels > 0x7fffffff || channels % g != 0 || channels % parts != 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "%lld channels of %s not divisible by group %d and into %lld outputs",
                                 (long long)channels, TensorUtils::describe(x)->name.c_str(), g, (long long)parts);
    }
    for (auto y : outputs) {
        ShapeUtils::setOutput(y, {x->length(0), (int)(channels / parts), x->length(2), x->length(3)}, x->getType());
    }
    return NO_ERROR;
}

}  // namespace MNN

MNN_REGISTER_SHAPE(ChannelShuffle, ShapeEntry{shapeChannelShuffle, nullptr, 0})
