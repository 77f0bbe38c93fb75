// Pad (constant zero, spatial axes only) folded into the window of the Convolution or AveragePool
// that alone reads it (inception_v3 writes its 3x3 average pools as Pad + AveragePool): the
// window op pads by itself, without the padded copy, and stays in the packed layout.
#include "Passes.hpp"

namespace MNN {
namespace Convert {

namespace {

/** the pads of a 4-D constant-zero Pad on H and W only: {top, left, bottom, right}; false otherwise */
bool spatialZeroPads(const Graph& g, const Schema::OpT& pad, std::vector<int>* hw) {
    auto p = pad.param.AsPadParam();
    if (!p || p->mode != Schema::PadType::CONSTANT || pad.inputs.size() < 2 || pad.inputs.size() > 3 ||
        pad.outputs.size() != 1) {
        return false;  // an axes input (opset 18) is left alone
    }
    if (pad.inputs.size() == 3 && pad.inputs[2] >= 0) {
        float v = 1.0f;
        if (!scalarValue(g, pad.inputs[2], &v) || v != 0.0f) {
            return false;
        }
    }
    auto b = g.constant(pad.inputs[1]);
    std::vector<int64_t> pads;
    if (!b || !blobInts(*b, &pads) || pads.size() != 8) {
        return false;
    }
    // ONNX order: x1_begin..x4_begin, x1_end..x4_end; N and C untouched, H and W not negative
    if (pads[0] != 0 || pads[1] != 0 || pads[4] != 0 || pads[5] != 0) {
        return false;
    }
    for (int i : {2, 3, 6, 7}) {
        if (pads[i] < 0 || pads[i] > 1024) {
            return false;
        }
    }
    *hw = {(int)pads[2], (int)pads[3], (int)pads[6], (int)pads[7]};
    return true;
}

/** window pads (begin..., end..., 2 spatial dims) plus hw; false when the window is not explicit 2-D */
bool addPads(std::vector<int>* pads, Schema::PadMode mode, const std::vector<int>& hw) {
    if (mode != Schema::PadMode::EXPLICIT || (!pads->empty() && pads->size() != 4)) {
        return false;
    }
    pads->resize(4, 0);
    for (int i = 0; i < 4; ++i) {
        (*pads)[i] += hw[i];
    }
    return true;
}

}  // namespace

bool foldPad(Graph& g) {
    bool changed = false;
    auto cons = g.consumers();
    std::vector<bool> dead(g.ops.size(), false);
    for (size_t i = 0; i < g.ops.size(); ++i) {
        auto& pad = *g.ops[i];
        std::vector<int> hw;
        if (pad.type != Schema::OpType::Pad || dead[i] || !spatialZeroPads(g, pad, &hw)) {
            continue;
        }
        const int t = pad.outputs[0];
        const int c = soleConsumer(g, cons, t);
        if (c < 0) {
            continue;
        }
        auto& op = *g.ops[c];
        if (op.inputs.empty() || op.inputs[0] != t) {
            continue;
        }
        if (auto cp = op.param.AsConvParam()) {
            // a zero border is what the convolution's own padding reads (a 4-D input: 2-D window)
            if (op.type != Schema::OpType::Convolution) {
                continue;
            }
            std::vector<int> pads = cp->pads;
            if (!addPads(&pads, cp->padMode, hw)) {
                continue;
            }
            cp->pads = pads;
        } else if (auto pp = op.param.AsPoolParam()) {
            // average over the padded input = average with the pads counted; a window that already
            // leaves its own pads out of the count, or ceil mode (windows starting in the end pad
            // are dropped there), would change meaning
            if (op.type != Schema::OpType::Pooling || pp->type != Schema::PoolType::AVERAGEPOOL || pp->global ||
                pp->ceilMode || pp->kernel.size() != 2) {
                continue;
            }
            bool ownPads = false;
            for (int v : pp->pads) {
                ownPads |= v != 0;
            }
            if (ownPads && !pp->countIncludePad) {
                continue;
            }
            std::vector<int> pads = pp->pads;
            if (!addPads(&pads, pp->padMode, hw)) {
                continue;
            }
            pp->pads = pads;
            pp->countIncludePad = true;
        } else {
            continue;
        }
        op.inputs[0] = pad.inputs[0];
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
