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
    loadConvParam(node, w, false, setParam<Schema::ConvParamT>(op));
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(ConvInteger, MNN::Convert::mapConvInteger, "ConvInteger", "QLinearConv")
