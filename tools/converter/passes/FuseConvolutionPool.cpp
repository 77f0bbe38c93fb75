// Convolution + pooling (a network's stem, VGG-style stages): a 2-D Convolution (X, W, [B]; group
// 1, constant W) whose output only a 2-D MaxPool / AveragePool (one output, not global) reads
// becomes one ConvolutionPool op. The CPU kernel then pools row bands of the convolution's output
// while they are in cache instead of writing the whole tensor and reading it back. Runs last, when
// the convolution already carries its activation and no residual Add can fold into it.
#include "Passes.hpp"

namespace MNN {
namespace Convert {

namespace {

/** a 2-D Convolution X, W, [B] (group 1, W a constant float [M, C, kh, kw]) with one output */
bool denseConv2d(const Graph& g, const Schema::OpT& op) {
    if (op.type != Schema::OpType::Convolution || op.inputs.size() < 2 || op.inputs.size() > 3 ||
        op.outputs.size() != 1 || op.inputs[0] < 0) {
        return false;
    }
    auto p = op.param.AsConvParam();
    if (!p || p->group != 1 || (!p->kernel.empty() && p->kernel.size() != 2) ||
        (!p->strides.empty() && p->strides.size() != 2) || (!p->dilations.empty() && p->dilations.size() != 2) ||
        (!p->pads.empty() && p->pads.size() != 4)) {
        return false;
    }
    auto w = g.constant(op.inputs[1]);
    if (!w || w->dataType != Schema::DataType::DT_FLOAT || w->dims.size() != 4) {
        return false;
    }
    if (op.inputs.size() > 2 && op.inputs[2] >= 0) {
        auto b = g.constant(op.inputs[2]);
        if (!b || b->dataType != Schema::DataType::DT_FLOAT) {
            return false;
        }
    }
    return true;
}

/** a 2-D MaxPool / AveragePool with one output, not global */
bool pool2d(const Schema::OpT& op) {
    if (op.type != Schema::OpType::Pooling || op.inputs.size() != 1 || op.outputs.size() != 1) {
        return false;
    }
    auto p = op.param.AsPoolParam();
    return p && !p->global && (p->type == Schema::PoolType::MAXPOOL || p->type == Schema::PoolType::AVERAGEPOOL) &&
           p->kernel.size() == 2 && (p->strides.empty() || p->strides.size() == 2) &&
           (p->dilations.empty() || p->dilations.size() == 2) && (p->pads.empty() || p->pads.size() == 4);
}

}  // namespace

bool fuseConvolutionPool(Graph& g) {
    auto cons = g.consumers();
    std::vector<bool> dead(g.ops.size(), false);
    bool changed = false;
    for (size_t i = 0; i < g.ops.size(); ++i) {
        auto& conv = *g.ops[i];
        if (dead[i] || !denseConv2d(g, conv)) {
            continue;
        }
        const int mid = conv.outputs[0];
        const int c = soleConsumer(g, cons, mid);
        if (c < 0 || dead[c] || (size_t)c == i) {
            continue;
        }
        auto& pool = *g.ops[c];
        if (!pool2d(pool) || pool.inputs[0] != mid) {
            continue;
        }
        // the fused op takes the pooling's place (its output, later in the op order than X)
        Schema::ConvolutionPoolParamT p;
        p.conv.reset(new Schema::ConvParamT(*conv.param.AsConvParam()));
        p.pool.reset(new Schema::PoolParamT(*pool.param.AsPoolParam()));
        pool.inputs = conv.inputs;
        pool.type = Schema::OpType::ConvolutionPool;
        pool.param.Reset();
        pool.param.Set(std::move(p));
        dead[i] = true;
        changed = true;
    }
    if (changed) {
        g.eraseOps(dead);
    }
    return changed;
}

}  // namespace Convert
}  // namespace MNN
