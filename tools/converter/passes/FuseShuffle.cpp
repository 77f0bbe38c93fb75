// Channel shuffle (ShuffleNet): Reshape [N, g, C/g, H, W] -> Transpose 0,2,1,3,4 -> Reshape
// [N, C, H, W] of a 4-D [N, C, H, W] tensor becomes one ChannelShuffle op (group g).
#include "Passes.hpp"

namespace MNN {
namespace Convert {

namespace {
struct ShuffleChain {
    int first, transpose, last;  // op indices
    int x;                       // the 4-D input
    std::vector<int64_t> mid;    // [N, g, C/g, H, W]
};

// a Reshape reading its shape from a constant (no allowZero: a 0 there would copy a dim)
bool constantReshape(const Graph& g, const Schema::OpT& op, std::vector<int64_t>* shape) {
    if (op.type != Schema::OpType::Reshape || op.inputs.size() != 2 || op.outputs.size() != 1 || op.inputs[0] < 0) {
        return false;
    }
    auto p = op.param.AsReshapeParam();
    if (p && p->allowZero) {
        return false;
    }
    return constantInts(g, op.inputs[1], shape);
}

// the tensor is read by exactly one op slot and is no graph output
bool privateTensor(const Graph& g, const std::vector<std::vector<int>>& cons, int t) {
    return soleConsumer(g, cons, t) >= 0 && !g.isConstant(t);
}
}  // namespace

bool fuseChannelShuffle(Graph& g) {
    auto prod = g.producers();
    auto cons = g.consumers();
    std::vector<ShuffleChain> chains;
    for (size_t i = 0; i < g.ops.size(); ++i) {
        std::vector<int64_t> last, mid;
        if (!constantReshape(g, *g.ops[i], &last) || last.size() != 4) {
            continue;
        }
        const int t1 = g.ops[i]->inputs[0];
        const int pt = prod[t1];
        if (pt < 0 || !privateTensor(g, cons, t1)) {
            continue;
        }
        auto& tr = *g.ops[pt];
        auto tp = tr.param.AsTransposeParam();
        if (tr.type != Schema::OpType::Transpose || tr.inputs.size() != 1 || tr.inputs[0] < 0 || !tp ||
            tp->perm != std::vector<int>{0, 2, 1, 3, 4}) {
            continue;
        }
        const int t0 = tr.inputs[0];
        const int pf = prod[t0];
        if (pf < 0 || !privateTensor(g, cons, t0) || !constantReshape(g, *g.ops[pf], &mid) || mid.size() != 5) {
            continue;
        }
        bool positive = true;
        for (auto v : mid) {
            positive = positive && v > 0 && v <= 0x7fffffff;
        }
        if (!positive) {
            continue;
        }
        // the final shape: [N, C, H, W], at most one -1 (inferred), no 0
        const int64_t want[4] = {mid[0], mid[1] * mid[2], mid[3], mid[4]};
        bool match = true;
        for (int k = 0; k < 4; ++k) {
            match = match && (last[k] == want[k] || (last[k] == -1 && k == 1));
        }
        if (!match) {
            continue;
        }
        chains.push_back({pf, pt, (int)i, g.ops[pf]->inputs[0], mid});
    }
    if (chains.empty()) {
        return false;
    }
    std::vector<int> xs;
    for (auto& c : chains) {
        xs.push_back(c.x);
    }
    std::vector<std::vector<int>> shapes;
    if (!staticShapes(g, xs, &shapes)) {
        return false;
    }
    std::vector<bool> dead(g.ops.size(), false);
    bool changed = false;
    for (size_t k = 0; k < chains.size(); ++k) {
        auto& c = chains[k];
        auto& s = shapes[k];
        if (s.size() != 4 || s[0] != c.mid[0] || (int64_t)s[1] != c.mid[1] * c.mid[2] || s[2] != c.mid[3] ||
            s[3] != c.mid[4] || dead[c.first] || dead[c.transpose] || dead[c.last]) {
            continue;
        }
        auto& op = *g.ops[c.last];
        op.type = Schema::OpType::ChannelShuffle;
        op.inputs = {c.x};
        Schema::ChannelShuffleParamT p;
        p.group = (int)c.mid[1];
        op.param.Reset();
        op.param.Set(p);
        dead[c.first] = dead[c.transpose] = true;
        changed = true;
    }
    if (changed) {
        g.eraseOps(dead);
    }
    return changed;
}

}  // namespace Convert
}  // namespace MNN
