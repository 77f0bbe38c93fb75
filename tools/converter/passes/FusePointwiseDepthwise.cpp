// Pointwise + depthwise (the first two convolutions of an inverted residual block): a 1x1
// convolution to E channels whose output only a depthwise convolution (group E) reads becomes one
// PointwiseDepthwise op. The CPU kernel then computes the expanded [N, E, H, W] tensor in row
// bands that stay in cache instead of writing and re-reading it whole. Runs once after the other
// passes, so both convolutions already carry their fused activations (Clip / Relu / HardSwish / SiLU).
// fusePlaneMean then gives a PointwiseDepthwise whose output a GlobalAveragePool reads (the squeeze
// of a squeeze-excite block) that pool's output as its second output M: the kernel sums the rows
// while they are in cache instead of the pool reading the whole tensor back.
#include "Passes.hpp"

namespace MNN {
namespace Convert {

namespace {

/** a constant float32 tensor of rank `rank` (uncompressed), its dims in *dims */
bool floatWeight(const Graph& g, int t, size_t rank, std::vector<int>* dims) {
    auto b = g.constant(t);
    if (!b || b->dataType != Schema::DataType::DT_FLOAT || b->compression != Schema::Compression::NONE ||
        b->dims.size() != rank) {
        return false;
    }
    *dims = b->dims;
    return true;
}

/** absent (-1 or no slot 2), or a constant float [e] */
bool optionalBias(const Graph& g, const Schema::OpT& conv, int e, int* bias) {
    *bias = conv.inputs.size() > 2 ? conv.inputs[2] : -1;
    if (*bias < 0) {
        return true;
    }
    std::vector<int> dims;
    return floatWeight(g, *bias, 1, &dims) && dims[0] == e;
}

bool allZero(const std::vector<int>& v) {
    for (int x : v) {
        if (x != 0) {
            return false;
        }
    }
    return true;
}

bool allOne(const std::vector<int>& v) {
    for (int x : v) {
        if (x != 1) {
            return false;
        }
    }
    return true;
}

/** a 2-D Convolution X, W, [B] with one output, its ConvParam */
const Schema::ConvParamT* conv2d(const Schema::OpT& op) {
    if (op.type != Schema::OpType::Convolution || op.inputs.size() < 2 || op.inputs.size() > 3 ||
        op.outputs.size() != 1 || op.inputs[0] < 0) {
        return nullptr;
    }
    auto p = op.param.AsConvParam();
    if (!p || (!p->kernel.empty() && p->kernel.size() != 2) || (!p->strides.empty() && p->strides.size() != 2) ||
        (!p->dilations.empty() && p->dilations.size() != 2) || (!p->pads.empty() && p->pads.size() != 4)) {
        return nullptr;
    }
    return p;
}

/** 1x1, stride 1, no pads (explicit zeros or VALID), group 1; W [E, C, 1, 1] constant */
bool pointwise(const Graph& g, const Schema::OpT& op, int* e) {
    auto p = conv2d(op);
    std::vector<int> w;
    if (!p || p->group != 1 || !floatWeight(g, op.inputs[1], 4, &w) || w[2] != 1 || w[3] != 1 || w[0] < 1) {
        return false;
    }
    if (!p->kernel.empty() && !allOne(p->kernel)) {
        return false;
    }
    const bool unpadded =
        p->padMode == Schema::PadMode::VALID || (p->padMode == Schema::PadMode::EXPLICIT && allZero(p->pads));
    if (!unpadded || !allOne(p->strides)) {
        return false;
    }
    *e = w[0];
    return true;
}

/** group e > 1, W [e, 1, kh, kw] constant */
bool depthwise(const Graph& g, const Schema::OpT& op, int e) {
    auto p = conv2d(op);
    std::vector<int> w;
    return p && e > 1 && p->group == e && floatWeight(g, op.inputs[1], 4, &w) && w[0] == e && w[1] == 1;
}

}  // namespace

bool fusePointwiseDepthwise(Graph& g) {
    auto cons = g.consumers();
    std::vector<bool> dead(g.ops.size(), false);
    bool changed = false;
    for (size_t i = 0; i < g.ops.size(); ++i) {
        auto& pw = *g.ops[i];
        int e = 0, b1 = -1, b2 = -1;
        if (dead[i] || !pointwise(g, pw, &e) || !optionalBias(g, pw, e, &b1)) {
            continue;
        }
        const int mid = pw.outputs[0];
        const int c = soleConsumer(g, cons, mid);
        if (c < 0 || dead[c] || (size_t)c == i) {
            continue;
        }
        auto& dw = *g.ops[c];
        if (dw.inputs.empty() || dw.inputs[0] != mid || !depthwise(g, dw, e) || !optionalBias(g, dw, e, &b2)) {
            continue;
        }
        // the fused op takes the depthwise op's place (its output, later in the op order than X)
        Schema::PointwiseDepthwiseParamT p;
        p.pointwise.reset(new Schema::ConvParamT(*pw.param.AsConvParam()));
        p.depthwise.reset(new Schema::ConvParamT(*dw.param.AsConvParam()));
        dw.inputs = {pw.inputs[0], pw.inputs[1], b1, dw.inputs[1], b2};
        dw.type = Schema::OpType::PointwiseDepthwise;
        dw.param.Reset();
        dw.param.Set(std::move(p));
        dead[i] = true;
        changed = true;
    }
    if (changed) {
        g.eraseOps(dead);
    }
    return changed;
}

bool fusePlaneMean(Graph& g) {
    auto cons = g.consumers();
    std::vector<bool> dead(g.ops.size(), false);
    bool changed = false;
    for (size_t i = 0; i < g.ops.size(); ++i) {
        auto& op = *g.ops[i];
        if (op.type != Schema::OpType::PointwiseDepthwise || op.outputs.size() != 1 || op.outputs[0] < 0) {
            continue;
        }
        for (int c : cons[op.outputs[0]]) {
            auto& pool = *g.ops[c];
            auto p = pool.type == Schema::OpType::Pooling ? pool.param.AsPoolParam() : nullptr;
            if (dead[c] || (size_t)c == i || !p || !p->global || p->type != Schema::PoolType::AVERAGEPOOL ||
                pool.inputs.size() != 1 || pool.outputs.size() != 1 || pool.outputs[0] < 0) {
                continue;
            }
            // Y is 4-D (the shape function's [N, E, OH, OW]): the global pool's output is [N, E, 1, 1]
            op.outputs.push_back(pool.outputs[0]);
            dead[c] = true;
            changed = true;
            break;
        }
    }
    if (changed) {
        g.eraseOps(dead);
    }
    return changed;
}

}  // namespace Convert
}  // namespace MNN
