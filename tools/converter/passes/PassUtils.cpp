#include "Passes.hpp"

namespace MNN {
namespace Convert {

bool scalarValue(const Graph& g, int t, float* v) {
    auto b = g.constant(t);
    if (!b || elementCount(b->dims) != 1) {
        return false;
    }
    std::vector<float> f;
    if (!blobFloats(*b, &f) || f.size() != 1) {
        return false;
    }
    *v = f[0];
    return true;
}

int binaryType(const Schema::OpT& op) {
    if (op.type != Schema::OpType::BinaryOp) {
        return -1;
    }
    auto p = op.param.AsBinaryParam();
    return p ? (int)p->type : (int)Schema::BinaryOpType::ADD;
}

int unaryType(const Schema::OpT& op) {
    if (op.type != Schema::OpType::UnaryOp) {
        return -1;
    }
    auto p = op.param.AsUnaryParam();
    return p ? (int)p->type : (int)Schema::UnaryOpType::ABS;
}

bool constantInts(const Graph& g, int t, std::vector<int64_t>* v) {
    auto b = g.constant(t);
    return b && blobInts(*b, v);
}

int soleConsumer(const Graph& g, const std::vector<std::vector<int>>& cons, int t) {
    if (t < 0 || g.isOutput(t) || cons[t].size() != 1) {
        return -1;
    }
    return cons[t][0];
}

void runPasses(Graph& g) {
    for (int round = 0; round < 8; ++round) {
        bool changed = false;
        changed |= removeIdentity(g);
        changed |= removeDeadNodes(g);
        changed |= foldShapes(g);
        changed |= foldConstants(g);
        changed |= removeDeadNodes(g);
        changed |= eliminateTranspose(g);
        changed |= fuseLayerNorm(g);
        changed |= fuseGelu(g);
        changed |= fuseHardSwish(g);
        changed |= fuseSilu(g);
        changed |= foldBatchNorm(g);
        changed |= fuseActivation(g);
        changed |= foldPad(g);
        changed |= fuseChannelShuffle(g);
        changed |= fuseChannelShuffleIO(g);
        changed |= removeIdentity(g);
        changed |= removeDeadNodes(g);
        if (!changed) {
            break;
        }
    }
    // outside the loop: fused earlier, a convolution could no longer take the Clip / Relu /
    // HardSwish / SiLU that follows it, nor a folded Pad or BatchNorm
    if (fusePointwiseDepthwise(g)) {
        removeDeadNodes(g);
    }
    if (fusePlaneMean(g)) {
        removeDeadNodes(g);
    }
    if (fuseInputScale(g)) {
        removeDeadNodes(g);
    }
    // the residual Add into its convolution, then the Relu after it into the same convolution
    if (fuseResidualAdd(g)) {
        fuseActivation(g);
        removeDeadNodes(g);
    }
    if (fuseConvolutionPool(g)) {
        removeDeadNodes(g);
    }
}

}  // namespace Convert
}  // namespace MNN
