// BatchNorm folding into Convolution / ConvTranspose / Gemm, and activation fusion (Relu, Clip).
#include <cmath>
#include "Passes.hpp"

namespace MNN {
namespace Convert {

namespace {
bool floatConst(const Graph& g, int t, std::vector<float>* v) {
    auto b = g.constant(t);
    return b && b->dataType == Schema::DataType::DT_FLOAT && b->compression == Schema::Compression::NONE &&
           blobFloats(*b, v);
}

}  // namespace

bool foldBatchNorm(Graph& g) {
    bool changed = false;
    auto cons = g.consumers();
    std::vector<bool> dead(g.ops.size(), false);
    for (size_t i = 0; i < g.ops.size(); ++i) {
        auto& op = *g.ops[i];
        bool conv = op.type == Schema::OpType::Convolution || op.type == Schema::OpType::ConvTranspose;
        bool gemm = op.type == Schema::OpType::Gemm;
        if ((!conv && !gemm) || op.outputs.size() != 1 || op.inputs.size() < 2 || dead[i]) {
            continue;
        }
        int c = soleConsumer(g, cons, op.outputs[0]);
        if (c < 0 || dead[c]) {
            continue;
        }
        auto& bn = *g.ops[c];
        if (bn.type != Schema::OpType::BatchNorm || bn.inputs.size() != 5 || bn.outputs.size() != 1 ||
            bn.inputs[0] != op.outputs[0]) {
            continue;
        }
        std::vector<float> w, bias, scale, shift, mean, var;
        auto wBlob = g.constant(op.inputs[1]);
        if (!floatConst(g, op.inputs[1], &w) || !floatConst(g, bn.inputs[1], &scale) ||
            !floatConst(g, bn.inputs[2], &shift) || !floatConst(g, bn.inputs[3], &mean) ||
            !floatConst(g, bn.inputs[4], &var)) {
            continue;
        }
        auto np = bn.param.AsNormParam();
        float eps = np ? np->epsilon : 1e-5f;
        size_t n = scale.size();
        if (shift.size() != n || mean.size() != n || var.size() != n || n == 0) {
            continue;
        }
        auto& wd = wBlob->dims;
        int group = 1;
        if (conv) {
            auto cp = op.param.AsConvParam();
            group = cp ? cp->group : 1;
            if (cp && cp->activation != Schema::FusedActivation::NONE) {
                continue;
            }
        }
        // output channel of every weight element
        std::vector<int64_t> channelOf;
        std::vector<int> biasDims = {(int)n};
        if (op.type == Schema::OpType::Convolution) {
            if (wd.size() < 2 || (size_t)wd[0] != n)
                continue;
            int64_t inner = elementCount(wd) / wd[0];
            channelOf.resize(w.size());
            for (size_t k = 0; k < w.size(); ++k)
                channelOf[k] = (int64_t)k / inner;
        } else if (op.type == Schema::OpType::ConvTranspose) {
            if (wd.size() < 2 || group < 1 || (size_t)wd[1] * group != n || wd[0] % group != 0)
                continue;
            int64_t inner = elementCount(wd) / ((int64_t)wd[0] * wd[1]);
            int64_t perGroupIn = wd[0] / group;
            channelOf.resize(w.size());
            for (size_t k = 0; k < w.size(); ++k) {
                int64_t ci = (int64_t)k / (inner * wd[1]);
                int64_t j = ((int64_t)k / inner) % wd[1];
                channelOf[k] = (ci / perGroupIn) * wd[1] + j;
            }
        } else {
            auto p = op.param.AsGemmParam();
            if (!p || wd.size() != 2 || p->activation != Schema::FusedActivation::NONE)
                continue;
            int N = p->transB ? wd[0] : wd[1];
            if ((size_t)N != n)
                continue;
            channelOf.resize(w.size());
            for (size_t k = 0; k < w.size(); ++k) {
                channelOf[k] = p->transB ? (int64_t)k / wd[1] : (int64_t)k % wd[1];
            }
        }
        std::vector<float> s(n), b2(n);
        for (size_t k = 0; k < n; ++k) {
            s[k] = scale[k] / std::sqrt(var[k] + eps);
        }
        // bias: conv B [n]; Gemm beta*C with C broadcastable to [n] (scalar, [n], [1, n])
        std::vector<float> oldBias(n, 0.0f);
        float beta = 1.0f;
        if (gemm) {
            beta = op.param.AsGemmParam()->beta;
        }
        if (op.inputs.size() > 2 && op.inputs[2] >= 0) {
            if (!floatConst(g, op.inputs[2], &bias))
                continue;
            auto& bd = g.constant(op.inputs[2])->dims;
            int64_t cnt = elementCount(bd);
            bool ok = cnt == 1 || (cnt == (int64_t)n && (bd.size() == 1 || (bd.size() == 2 && bd[0] == 1)));
            if (!ok)
                continue;
            for (size_t k = 0; k < n; ++k)
                oldBias[k] = beta * bias[cnt == 1 ? 0 : k];
        }
        for (size_t k = 0; k < n; ++k) {
            b2[k] = (oldBias[k] - mean[k]) * s[k] + shift[k];
        }
        std::vector<float> w2(w.size());
        for (size_t k = 0; k < w.size(); ++k) {
            w2[k] = w[k] * s[channelOf[k]];
        }
        int newW = g.addConstant(g.names[op.inputs[1]] + "_bnfold", floatBlob(wd, w2));
        int newB = g.addConstant(op.name + "_bias_bnfold", floatBlob(biasDims, b2));
        op.inputs.resize(3);
        op.inputs[1] = newW;
        op.inputs[2] = newB;
        if (gemm) {
            op.param.AsGemmParam()->beta = 1.0f;
        }
        op.outputs[0] = bn.outputs[0];
        dead[c] = true;
        changed = true;
    }
    if (changed) {
        g.eraseOps(dead);
    }
    return changed;
}

bool fuseActivation(Graph& g) {
    bool changed = false;
    auto cons = g.consumers();
    std::vector<bool> dead(g.ops.size(), false);
    for (size_t i = 0; i < g.ops.size(); ++i) {
        auto& op = *g.ops[i];
        if ((op.type != Schema::OpType::Convolution && op.type != Schema::OpType::Gemm) || op.outputs.size() != 1) {
            continue;
        }
        int c = soleConsumer(g, cons, op.outputs[0]);
        if (c < 0 || dead[c]) {
            continue;
        }
        auto& act = *g.ops[c];
        int u = unaryType(act);
        // ReLU / Clip fuse into Convolution and Gemm; SiLU / HardSwish into Convolution only
        Schema::FusedActivation fa;
        if (u == (int)Schema::UnaryOpType::RELU) {
            fa = Schema::FusedActivation::RELU;
        } else if (u == (int)Schema::UnaryOpType::CLIP) {
            fa = Schema::FusedActivation::CLIP;
        } else if (u == (int)Schema::UnaryOpType::SILU && op.type == Schema::OpType::Convolution) {
            fa = Schema::FusedActivation::SILU;
        } else if (u == (int)Schema::UnaryOpType::HARD_SWISH && op.type == Schema::OpType::Convolution) {
            fa = Schema::FusedActivation::HARD_SWISH;
        } else {
            continue;
        }
        if (act.inputs.size() != 1 || act.outputs.size() != 1) {
            continue;
        }
        auto up = act.param.AsUnaryParam();
        const bool clip = fa == Schema::FusedActivation::CLIP;
        float lo = (clip && up) ? up->alpha : 0.0f, hi = (clip && up) ? up->beta : 0.0f;
        if (auto cp = op.param.AsConvParam()) {
            if (cp->activation != Schema::FusedActivation::NONE)
                continue;
            cp->activation = fa;
            cp->clipMin = lo;
            cp->clipMax = hi;
        } else if (auto gp = op.param.AsGemmParam()) {
            if (gp->activation != Schema::FusedActivation::NONE)
                continue;
            gp->activation = fa;
            gp->clipMin = lo;
            gp->clipMax = hi;
        } else {
            continue;
        }
        op.outputs[0] = act.outputs[0];
        dead[c] = true;
        changed = true;
    }
    if (changed) {
        g.eraseOps(dead);
    }
    return changed;
}

}  // namespace Convert
}  // namespace MNN
