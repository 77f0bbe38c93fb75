// ConvInteger (x, w, [x_zero_point], [w_zero_point]) and QLinearConv (x, x_scale, x_zero_point, w,
// w_scale, w_zero_point, y_scale, y_zero_point, [B]) -> same-named ops with Conv's ConvParam.
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapConvInteger(OnnxNode& node) {
    const bool qlinear = node.opType() == "QLinearConv";
    const int wIndex = qlinear ? 3 : 1;
    const int x = node.input(0), w = node.input(wIndex);
    if (x < 0 || w < 0) {
        node.invalid("needs inputs x and w");
    }
    auto op = node.addOp(qlinear ? Schema::OpType::QLinearConv : Schema::OpType::ConvInteger, node.inputs(),
                         {node.output(0)});
    auto p = setParam<Schema::ConvParamT>(op);
    p->kernel = node.toInts(node.attrInts("kernel_shape"));
    p->strides = node.toInts(node.attrInts("strides"));
    p->dilations = node.toInts(node.attrInts("dilations"));
    p->pads = node.toInts(node.attrInts("pads"));
    p->group = (int)node.attrInt("group", 1);
    if (p->group < 1) {
        node.invalid("group must be >= 1");
    }
    p->padMode = padMode(node);
    std::vector<int> wd;
    if (node.knownShape(w, &wd) && wd.size() >= 2) {
        if (p->kernel.empty()) {
            p->kernel.assign(wd.begin() + 2, wd.end());
        }
        p->outputCount = wd[0];
        p->inputCount = wd[1] * p->group;
    }
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(ConvInteger, MNN::Convert::mapConvInteger, "ConvInteger", "QLinearConv")
