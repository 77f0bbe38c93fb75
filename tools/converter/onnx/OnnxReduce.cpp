// ReduceX -> Reduce (axes as an input, also for the opsets that had an attribute); ArgMax / ArgMin;
// TopK (k attribute of opset < 10 becomes an input); CumSum.
#include <map>
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapReduce(OnnxNode& node) {
    using R = Schema::ReduceType;
    static const std::map<std::string, R> table = {
        {"ReduceSum", R::SUM},
        {"ReduceMean", R::MEAN},
        {"ReduceMax", R::MAXIMUM},
        {"ReduceMin", R::MINIMUM},
        {"ReduceProd", R::PROD},
        {"ReduceL1", R::L1},
        {"ReduceL2", R::L2},
        {"ReduceLogSum", R::LOG_SUM},
        {"ReduceLogSumExp", R::LOG_SUM_EXP},
        {"ReduceSumSquare", R::SUM_SQUARE},
    };
    auto it = table.find(node.opType());
    if (it == table.end()) {
        node.unsupported("not a reduction");
    }
    int inputSince = node.opType() == "ReduceSum" ? 13 : 18;
    int axes = inputOrConst(node, 1, "axes", node.opset() < inputSince);
    std::vector<int> in = {node.input(0)};
    if (axes >= 0) {
        in.push_back(axes);
    }
    auto op = node.addOp(Schema::OpType::Reduce, in, {node.output(0)});
    auto p = setParam<Schema::ReduceParamT>(op);
    p->type = it->second;
    p->keepDims = node.attrInt("keepdims", 1) != 0;
    p->noopWithEmptyAxes = node.attrInt("noop_with_empty_axes", 0) != 0;
}

void mapArg(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::ArgMax, {node.input(0)}, {node.output(0)});
    auto p = setParam<Schema::ArgParamT>(op);
    p->axis = (int)node.attrInt("axis", 0);
    p->keepDims = node.attrInt("keepdims", 1) != 0;
    p->selectLastIndex = node.attrInt("select_last_index", 0) != 0;
    p->isMin = node.opType() == "ArgMin";
}

void mapTopK(OnnxNode& node) {
    int k;
    if (node.opset() < 10) {
        if (!node.hasAttr("k")) {
            node.invalid("k is required");
        }
        k = node.constInt64("k", {1}, {node.attrInt("k", 0)});
    } else {
        k = node.input(1);
    }
    auto op = node.addOp(Schema::OpType::TopK, {node.input(0), k}, node.outputs());
    auto p = setParam<Schema::TopKParamT>(op);
    p->axis = (int)node.attrInt("axis", -1);
    p->largest = node.attrInt("largest", 1) != 0;
    p->sorted = node.attrInt("sorted", 1) != 0;
}

void mapCumSum(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::CumSum, {node.input(0), node.input(1)}, {node.output(0)});
    auto p = setParam<Schema::AxisParamT>(op);
    p->exclusive = node.attrInt("exclusive", 0) != 0;
    p->reverse = node.attrInt("reverse", 0) != 0;
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(Reduce, MNN::Convert::mapReduce, "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
                  "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare")
MNN_REGISTER_ONNX(ArgMax, MNN::Convert::mapArg, "ArgMax", "ArgMin")
MNN_REGISTER_ONNX(TopK, MNN::Convert::mapTopK, "TopK")
MNN_REGISTER_ONNX(CumSum, MNN::Convert::mapCumSum, "CumSum")
