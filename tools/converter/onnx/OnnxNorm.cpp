// Normalisations: BatchNormalization, InstanceNormalization, LayerNormalization, GroupNormalization,
// RMSNormalization, LpNormalization, LRN, MeanVarianceNormalization.
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void mapBatchNorm(OnnxNode& node) {
    if (node.attrInt("training_mode", 0) != 0) {
        node.unsupported("training_mode = 1");
    }
    for (int i = 1; i < node.outputCount(); ++i) {
        if (node.outputUsed(i)) {
            node.unsupported("training outputs (running mean / var) are used");
        }
    }
    if (node.opset() < 9 && node.attrInt("spatial", 1) == 0) {
        node.unsupported("spatial = 0");
    }
    auto op = node.addOp(Schema::OpType::BatchNorm, node.inputs(), {node.output(0)});
    auto p = setParam<Schema::NormParamT>(op);
    p->epsilon = node.attrFloat("epsilon", 1e-5f);
    p->momentum = node.attrFloat("momentum", 0.9f);
}

void mapInstanceNorm(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::InstanceNorm, node.inputs(), {node.output(0)});
    setParam<Schema::NormParamT>(op)->epsilon = node.attrFloat("epsilon", 1e-5f);
}

void mapLayerNorm(OnnxNode& node) {
    bool rms = node.opType() == "RMSNormalization";
    auto op = node.addOp(rms ? Schema::OpType::RMSNorm : Schema::OpType::LayerNorm, node.inputs(),
                         node.usedOutputs());
    auto p = setParam<Schema::NormParamT>(op);
    p->epsilon = node.attrFloat("epsilon", 1e-5f);
    p->axis = (int)node.attrInt("axis", -1);
    p->stashType = (int)node.attrInt("stash_type", 1);
}

void mapGroupNorm(OnnxNode& node) {
    // opset 18 gives scale / bias per group, opset 21 per channel: the kernel takes both forms
    auto op = node.addOp(Schema::OpType::GroupNorm, node.inputs(), {node.output(0)});
    auto p = setParam<Schema::NormParamT>(op);
    p->epsilon = node.attrFloat("epsilon", 1e-5f);
    if (!node.hasAttr("num_groups")) {
        node.invalid("num_groups is required");
    }
    p->numGroups = (int)node.attrInt("num_groups", 1);
    p->stashType = (int)node.attrInt("stash_type", 1);
}

void mapLpNorm(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::LpNormalization, {node.input(0)}, {node.output(0)});
    auto p = setParam<Schema::NormParamT>(op);
    p->axis = (int)node.attrInt("axis", -1);
    p->p = (int)node.attrInt("p", 2);
}

void mapLRN(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::LRN, {node.input(0)}, {node.output(0)});
    auto p = setParam<Schema::LrnParamT>(op);
    p->alpha = node.attrFloat("alpha", 0.0001f);
    p->beta = node.attrFloat("beta", 0.75f);
    p->bias = node.attrFloat("bias", 1.0f);
    if (!node.hasAttr("size")) {
        node.invalid("size is required");
    }
    p->size = (int)node.attrInt("size", 1);
}

void mapMVN(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::MeanVarianceNormalization, {node.input(0)}, {node.output(0)});
    auto p = setParam<Schema::NormParamT>(op);
    p->axes = node.hasAttr("axes") ? node.toInts(node.attrInts("axes")) : std::vector<int>{0, 2, 3};
}
} // namespace

} // namespace Convert
} // namespace MNN

MNN_REGISTER_ONNX(BatchNormalization, MNN::Convert::mapBatchNorm, "BatchNormalization")
MNN_REGISTER_ONNX(InstanceNormalization, MNN::Convert::mapInstanceNorm, "InstanceNormalization")
MNN_REGISTER_ONNX(LayerNormalization, MNN::Convert::mapLayerNorm, "LayerNormalization", "RMSNormalization")
MNN_REGISTER_ONNX(GroupNormalization, MNN::Convert::mapGroupNorm, "GroupNormalization")
MNN_REGISTER_ONNX(LpNormalization, MNN::Convert::mapLpNorm, "LpNormalization")
MNN_REGISTER_ONNX(LRN, MNN::Convert::mapLRN, "LRN")
MNN_REGISTER_ONNX(MeanVarianceNormalization, MNN::Convert::mapMVN, "MeanVarianceNormalization")
