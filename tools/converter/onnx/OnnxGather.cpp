// Gather, GatherElements, GatherND, ScatterND, ScatterElements (and the deprecated Scatter).
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
int reduction(OnnxNode& node) {
    auto r = node.attrString("reduction", "none");
    if (r == "none")
        return 0;
    if (r == "add")
        return 1;
    if (r == "mul")
        return 2;
    if (r == "max")
        return 3;
    if (r == "min")
        return 4;
    node.invalid("unknown reduction '" + r + "'");
}

void mapGather(OnnxNode& node) {
    const auto& t = node.opType();
    Schema::OpType type = t == "Gather"
                              ? Schema::OpType::Gather
                              : (t == "GatherElements" ? Schema::OpType::GatherElements : Schema::OpType::GatherND);
    auto op = node.addOp(type, {node.input(0), node.input(1)}, {node.output(0)});
    auto p = setParam<Schema::AxisParamT>(op);
    p->axis = (int)node.attrInt("axis", 0);
    p->batchDims = (int)node.attrInt("batch_dims", 0);
}

void mapScatter(OnnxNode& node) {
    bool nd = node.opType() == "ScatterND";
    auto op = node.addOp(nd ? Schema::OpType::ScatterND : Schema::OpType::ScatterElements,
                         {node.input(0), node.input(1), node.input(2)}, {node.output(0)});
    auto p = setParam<Schema::AxisParamT>(op);
    p->axis = (int)node.attrInt("axis", 0);
    p->reduction = reduction(node);
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(Gather, MNN::Convert::mapGather, "Gather", "GatherElements", "GatherND")
MNN_REGISTER_ONNX(Scatter, MNN::Convert::mapScatter, "ScatterND", "ScatterElements", "Scatter")
