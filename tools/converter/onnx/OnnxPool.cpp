// MaxPool / AveragePool / LpPool and their Global forms -> Pooling; MaxUnpool.
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapPool(OnnxNode& node) {
    const auto& t = node.opType();
    auto op = node.addOp(Schema::OpType::Pooling, {node.input(0)}, node.usedOutputs());
    auto p = setParam<Schema::PoolParamT>(op);
    if (t == "MaxPool" || t == "GlobalMaxPool") {
        p->type = Schema::PoolType::MAXPOOL;
    } else if (t == "AveragePool" || t == "GlobalAveragePool") {
        p->type = Schema::PoolType::AVERAGEPOOL;
    } else {
        p->type = Schema::PoolType::LPPOOL;
        p->p = (int)node.attrInt("p", 2);
    }
    if (t.compare(0, 6, "Global") == 0) {
        p->global = true;
        return;
    }
    p->kernel = node.toInts(node.attrInts("kernel_shape"));
    if (p->kernel.empty()) {
        node.invalid("kernel_shape is required");
    }
    p->strides = node.toInts(node.attrInts("strides"));
    p->dilations = node.toInts(node.attrInts("dilations"));
    p->pads = node.toInts(node.attrInts("pads"));
    p->padMode = padMode(node);
    p->ceilMode = node.attrInt("ceil_mode", 0) != 0;
    p->countIncludePad = node.attrInt("count_include_pad", 0) != 0;
    p->storageOrder = (int)node.attrInt("storage_order", 0);
    if (node.outputCount() > 1 && p->type != Schema::PoolType::MAXPOOL) {
        node.invalid("only MaxPool has an Indices output");
    }
}

void mapMaxUnpool(OnnxNode& node) {
    auto op = addSimple(node, Schema::OpType::MaxUnpool);
    auto p = setParam<Schema::PoolParamT>(op);
    p->kernel = node.toInts(node.attrInts("kernel_shape"));
    p->strides = node.toInts(node.attrInts("strides"));
    p->pads = node.toInts(node.attrInts("pads"));
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(Pool, MNN::Convert::mapPool, "MaxPool", "AveragePool", "LpPool", "GlobalMaxPool", "GlobalAveragePool",
                  "GlobalLpPool")
MNN_REGISTER_ONNX(MaxUnpool, MNN::Convert::mapMaxUnpool, "MaxUnpool")
