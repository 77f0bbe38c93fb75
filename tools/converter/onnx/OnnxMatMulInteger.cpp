// MatMulInteger (A, B, [a_zero_point], [b_zero_point]) and QLinearMatMul (a, a_scale, a_zero_point,
// b, b_scale, b_zero_point, y_scale, y_zero_point) -> same-named ops, inputs in ONNX order.
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapMatMulInteger(OnnxNode& node) {
    const bool qlinear = node.opType() == "QLinearMatMul";
    if (node.input(0) < 0 || node.input(qlinear ? 3 : 1) < 0) {
        node.invalid("needs inputs a and b");
    }
    node.addOp(qlinear ? Schema::OpType::QLinearMatMul : Schema::OpType::MatMulInteger, node.inputs(),
               {node.output(0)});
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(MatMulInteger, MNN::Convert::mapMatMulInteger, "MatMulInteger", "QLinearMatMul")
