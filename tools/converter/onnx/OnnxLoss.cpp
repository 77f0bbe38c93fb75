// NegativeLogLikelihoodLoss -> NegativeLogLikelihoodLoss (LossParam);
// SoftmaxCrossEntropyLoss(scores, labels, [weights]) -> [log_prob] = Softmax(LOG_SOFTMAX, axis 1)
// of scores, then NegativeLogLikelihoodLoss(log_prob, labels, [weights]) (the ONNX function body).
#include "OnnxCommon.hpp"

namespace MNN {
namespace Convert {

namespace {
void setLossParam(OnnxNode& node, Schema::OpT* op) {
    auto p = setParam<Schema::LossParamT>(op);
    const auto r = node.attrString("reduction", "mean");
    if (r == "none") {
        p->reduction = Schema::LossReduction::NONE;
    } else if (r == "sum") {
        p->reduction = Schema::LossReduction::SUM;
    } else if (r == "mean") {
        p->reduction = Schema::LossReduction::MEAN;
    } else {
        node.invalid("unknown reduction '" + r + "'");
    }
    p->hasIgnoreIndex = node.hasAttr("ignore_index");
    p->ignoreIndex = node.attrInt("ignore_index", 0);
}

void mapNegativeLogLikelihoodLoss(OnnxNode& node) {
    auto op = node.addOp(Schema::OpType::NegativeLogLikelihoodLoss, {node.input(0), node.input(1), node.input(2)},
                         {node.output(0)});
    setLossParam(node, op);
}

void mapSoftmaxCrossEntropyLoss(OnnxNode& node) {
    const int logProb = node.outputUsed(1) ? node.output(1) : node.tmp("log_prob");
    auto sm = node.addOp(Schema::OpType::Softmax, {node.input(0)}, {logProb}, "/log_softmax");
    auto sp = setParam<Schema::SoftmaxParamT>(sm);
    sp->axis = 1;
    sp->mode = Schema::SoftmaxMode::LOG_SOFTMAX;
    auto op = node.addOp(Schema::OpType::NegativeLogLikelihoodLoss, {logProb, node.input(1), node.input(2)},
                         {node.output(0)});
    setLossParam(node, op);
}
}  // namespace

}  // namespace Convert
}  // namespace MNN

MNN_REGISTER_ONNX(NegativeLogLikelihoodLoss, MNN::Convert::mapNegativeLogLikelihoodLoss, "NegativeLogLikelihoodLoss")
MNN_REGISTER_ONNX(SoftmaxCrossEntropyLoss, MNN::Convert::mapSoftmaxCrossEntropyLoss, "SoftmaxCrossEntropyLoss")
