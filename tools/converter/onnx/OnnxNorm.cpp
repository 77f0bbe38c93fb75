// Normalisations: BatchNormalization, InstanceNormalization, LayerNormalization, GroupNormalization,
// RMSNormalization, LpNormalization, LRN, MeanVarianceNormalization.
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
/** BatchNormalization-14+ with training_mode = 1: batch statistics, written with Reduce / BinaryOp /
 *  UnaryOp / Reshape (needs X's rank). Outputs Y [, running_mean, running_var]. */
void mapBatchNormTraining(OnnxNode& node) {
    std::vector<int> xd;
    if (!node.knownShape(node.input(0), &xd) || xd.size() < 2) {
        node.unsupported("training_mode = 1 on an input of unknown rank");
    }
    int rank = (int)xd.size();
    int x = node.input(0), scale = node.input(1), bias = node.input(2);
    float eps = node.attrFloat("epsilon", 1e-5f), momentum = node.attrFloat("momentum", 0.9f);
    auto bin = [&](Schema::BinaryOpType t, int a, int b, int out, const std::string& sfx) {
        auto op = node.addOp(Schema::OpType::BinaryOp, {a, b}, {out}, sfx);
        setParam<Schema::BinaryParamT>(op)->type = t;
        return out;
    };
    std::vector<int64_t> axes = {0};
    for (int i = 2; i < rank; ++i)
        axes.push_back(i);
    int axesT = node.constInt64("axes", {(int)axes.size()}, axes);
    auto mean = [&](int in, const std::string& sfx) {
        int out = node.tmp(sfx);
        auto op = node.addOp(Schema::OpType::Reduce, {in, axesT}, {out}, sfx);
        auto p = setParam<Schema::ReduceParamT>(op);
        p->type = Schema::ReduceType::MEAN;
        p->keepDims = true;
        return out;
    };
    int m = mean(x, "mean");
    int d = bin(Schema::BinaryOpType::SUB, x, m, node.tmp("centered"), "centered");
    int d2 = bin(Schema::BinaryOpType::MUL, d, d, node.tmp("squared"), "squared");
    int v = mean(d2, "var");
    int ve = bin(Schema::BinaryOpType::ADD, v, node.constFloat("eps", {}, {eps}), node.tmp("var_eps"), "var_eps");
    int sd = node.tmp("std");
    auto sq = node.addOp(Schema::OpType::UnaryOp, {ve}, {sd}, "std");
    setParam<Schema::UnaryParamT>(sq)->type = Schema::UnaryOpType::SQRT;
    int n = bin(Schema::BinaryOpType::DIV, d, sd, node.tmp("normalized"), "normalized");
    std::vector<int64_t> chShape(rank - 1, 1);
    chShape[0] = -1;
    int chShapeT = node.constInt64("channel_shape", {rank - 1}, chShape);
    auto perChannel = [&](int t, const std::string& sfx) {
        int out = node.tmp(sfx);
        node.addOp(Schema::OpType::Reshape, {t, chShapeT}, {out}, sfx);
        return out;
    };
    int scaled = bin(Schema::BinaryOpType::MUL, n, perChannel(scale, "scale_c"), node.tmp("scaled"), "scaled");
    bin(Schema::BinaryOpType::ADD, scaled, perChannel(bias, "bias_c"), node.output(0), "shifted");
    int flat = node.constInt64("flat", {1}, {-1});
    int mom = node.constFloat("momentum", {}, {momentum});
    int rest = node.constFloat("one_minus_momentum", {}, {1.0f - momentum});
    for (int k = 1; k <= 2 && k < node.outputCount(); ++k) {
        if (!node.outputUsed(k))
            continue;
        std::string what = k == 1 ? "mean" : "var";
        int cur = node.tmp("current_" + what);
        node.addOp(Schema::OpType::Reshape, {k == 1 ? m : v, flat}, {cur}, "current_" + what);
        int a = bin(Schema::BinaryOpType::MUL, node.input(k + 2), mom, node.tmp("old_" + what), "old_" + what);
        int b = bin(Schema::BinaryOpType::MUL, cur, rest, node.tmp("new_" + what), "new_" + what);
        bin(Schema::BinaryOpType::ADD, a, b, node.output(k), "running_" + what);
    }
}

void mapBatchNorm(OnnxNode& node) {
    if (node.attrInt("training_mode", 0) != 0) {
        mapBatchNormTraining(node);
        return;
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
    auto op = node.addOp(rms ? Schema::OpType::RMSNorm : Schema::OpType::LayerNorm, node.inputs(), node.usedOutputs());
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
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(BatchNormalization, MNN::Convert::mapBatchNorm, "BatchNormalization")
MNN_REGISTER_ONNX(InstanceNormalization, MNN::Convert::mapInstanceNorm, "InstanceNormalization")
MNN_REGISTER_ONNX(LayerNormalization, MNN::Convert::mapLayerNorm, "LayerNormalization", "RMSNormalization")
MNN_REGISTER_ONNX(GroupNormalization, MNN::Convert::mapGroupNorm, "GroupNormalization")
MNN_REGISTER_ONNX(LpNormalization, MNN::Convert::mapLpNorm, "LpNormalization")
MNN_REGISTER_ONNX(LRN, MNN::Convert::mapLRN, "LRN")
MNN_REGISTER_ONNX(MeanVarianceNormalization, MNN::Convert::mapMVN, "MeanVarianceNormalization")
