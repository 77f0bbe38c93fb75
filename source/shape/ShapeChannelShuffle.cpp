// ChannelShuffle (x): 4-D [N, C, H, W] -> the same shape; output channel j * group + i is input
// channel i * (C / group) + j (what Reshape [N, g, C/g, H, W] -> Transpose 0,2,1,3,4 -> Reshape
// [N, C, H, W] computes; the converter fuses that chain).
#include "ShapeUtils.hpp"

namespace MNN {

static ErrorCode shapeChannelShuffle(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                     const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output");
    }
    auto p = op->param_as_ChannelShuffleParam();
    const int g = p ? p->group() : 0;
    auto x = inputs[0];
    if (g < 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "group %d must be >= 1", g);
    }
    if (x->dimensions() != 4) {
        return ShapeUtils::error(op, INVALID_VALUE, "input %s must be 4-D NCHW, got %s",
                                 TensorUtils::describe(x)->name.c_str(), TensorUtils::shapeString(x).c_str());
    }
    if (x->length(1) % g != 0) {
        return ShapeUtils::error(op, INVALID_VALUE, "channels %d of %s not divisible by group %d", x->length(1),
                                 TensorUtils::describe(x)->name.c_str(), g);
    }
    ShapeUtils::setOutputLike(outputs[0], x);
    return NO_ERROR;
}

}  // namespace MNN

MNN_REGISTER_SHAPE(ChannelShuffle, ShapeEntry{shapeChannelShuffle, nullptr, 0})
