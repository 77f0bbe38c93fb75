// Conv / ConvTranspose -> Convolution / ConvTranspose (inputs X, W, [B]).
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

void loadConvParam(OnnxNode& node, int w, bool transpose, Schema::ConvParamT* p) {
    p->kernel = node.toInts(node.attrInts("kernel_shape"));
    p->strides = node.toInts(node.attrInts("strides"));
    p->dilations = node.toInts(node.attrInts("dilations"));
    p->pads = node.toInts(node.attrInts("pads"));
    p->group = (int)node.attrInt("group", 1);
    if (p->group < 1) {
        node.invalid("group must be >= 1");
    }
    p->padMode = padMode(node);
    if (transpose) {
        p->outputPadding = node.toInts(node.attrInts("output_padding"));
        p->outputShape = node.toInts(node.attrInts("output_shape"));
    }
    std::vector<int> wd;
    if (node.knownShape(w, &wd) && wd.size() >= 2) {
        if (p->kernel.empty()) {
            p->kernel.assign(wd.begin() + 2, wd.end());
        }
        if (transpose) {
            p->inputCount = wd[0];
            p->outputCount = wd[1] * p->group;
        } else {
            p->outputCount = wd[0];
            p->inputCount = wd[1] * p->group;
        }
    }
}

namespace {
void mapConv(OnnxNode& node) {
    bool transpose = node.opType() == "ConvTranspose";
    int x = node.input(0), w = node.input(1), b = node.input(2);
    if (x < 0 || w < 0) {
        node.invalid("needs inputs X and W");
    }
    std::vector<int> in = {x, w};
    if (b >= 0) {
        in.push_back(b);
    }
    auto op = node.addOp(transpose ? Schema::OpType::ConvTranspose : Schema::OpType::Convolution, in, {node.output(0)});
    loadConvParam(node, w, transpose, setParam<Schema::ConvParamT>(op));
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(Conv, MNN::Convert::mapConv, "Conv", "ConvTranspose")
