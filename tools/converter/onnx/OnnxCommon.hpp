// Small helpers shared by the ONNX op mappers.
#ifndef MNN_CONVERTER_ONNXCOMMON_HPP
#define MNN_CONVERTER_ONNXCOMMON_HPP

#include <limits>
#include "../source/OnnxNode.hpp"

namespace MNN {
namespace Convert {

/** sets a fresh parameter table of type P on op and returns it */
template <typename P>
P* setParam(Schema::OpT* op) {
    op->param.Set(P());
    return reinterpret_cast<P*>(op->param.value);
}

/** one op with all the node's inputs and outputs */
inline Schema::OpT* addSimple(OnnxNode& node, Schema::OpType type) {
    return node.addOp(type, node.inputs(), node.outputs());
}

inline Schema::PadMode padMode(OnnxNode& node) {
    auto p = node.attrString("auto_pad", "NOTSET");
    if (p == "NOTSET" || p.empty()) {
        return Schema::PadMode::EXPLICIT;
    }
    if (p == "SAME_UPPER") {
        return Schema::PadMode::SAME_UPPER;
    }
    if (p == "SAME_LOWER") {
        return Schema::PadMode::SAME_LOWER;
    }
    if (p == "VALID") {
        return Schema::PadMode::VALID;
    }
    node.invalid("unknown auto_pad '" + p + "'");
}

/** Conv's attributes (kernel_shape, strides, dilations, pads, group, auto_pad, and ConvTranspose's
 * output_padding / output_shape) into p; kernel and channel counts from W (input index w) where its
 * shape is known. Shared by Conv / ConvTranspose and ConvInteger / QLinearConv (OnnxConv.cpp). */
void loadConvParam(OnnxNode& node, int w, bool transpose, Schema::ConvParamT* p);

/** the recurrent ops' attributes (hidden_size, direction, activations, clip, ...) into p; shared by
 * LSTM / GRU / RNN and com.microsoft.DynamicQuantizeLSTM (OnnxRnn.cpp) */
void loadRnnParam(OnnxNode& node, Schema::RnnParamT* p);

/** input i when present, else a new int64 constant holding `values` (the attribute form) */
inline int inputOrConst(OnnxNode& node, int i, const std::string& attr, bool attrForm) {
    if (attrForm) {
        if (!node.hasAttr(attr)) {
            return -1;
        }
        auto v = node.attrInts(attr);
        return node.constInt64(attr, {(int)v.size()}, v);
    }
    return node.input(i);
}

}  // namespace Convert
}  // namespace MNN
#endif
