// Gemm -> Gemm (A, B, [C]); MatMul -> MatMul.
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapGemm(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::Gemm, node.inputs(), {node.output(0)});
    auto p = setParam<Schema::GemmParamT>(op);
    p->alpha = node.attrFloat("alpha", 1.0f);
    p->beta = node.attrFloat("beta", 1.0f);
    p->transA = node.attrInt("transA", 0) != 0;
    p->transB = node.attrInt("transB", 0) != 0;
}

void mapMatMul(OnnxNode& node) {
    if (node.input(0) < 0 || node.input(1) < 0) {
        node.invalid("needs two inputs");
    }
    node.addOp(Schema::OpType::MatMul, {node.input(0), node.input(1)}, {node.output(0)});
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(Gemm, MNN::Convert::mapGemm, "Gemm")
MNN_REGISTER_ONNX(MatMul, MNN::Convert::mapMatMul, "MatMul")
