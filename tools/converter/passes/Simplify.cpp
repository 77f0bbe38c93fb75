// Identity removal, dead-node removal, transpose elimination.
#include <deque>
#include "Passes.hpp"

namespace MNN {
namespace Convert {

bool removeIdentity(Graph& g) {
    bool changed = false;
    std::vector<bool> dead(g.ops.size(), false);
    for (size_t i = 0; i < g.ops.size(); ++i) {
        auto& op = *g.ops[i];
        if (op.type != Schema::OpType::Identity || op.inputs.size() != 1 || op.outputs.size() != 1 ||
            op.inputs[0] < 0) {
            continue;
        }
        int x = op.inputs[0], y = op.outputs[0];
        if (!g.isOutput(y)) {
            g.replaceUses(y, x);
            dead[i] = true;
            changed = true;
            continue;
        }
        // y is a graph output: let x's producer write y directly when x is a plain intermediate
        if (g.isOutput(x) || g.isInput(x) || g.isConstant(x)) {
            continue;
        }
        auto prod = g.producers();
        int p = prod[x];
        if (p < 0 || dead[p]) {
            continue;
        }
        for (auto& o : g.ops[p]->outputs) {
            if (o == x) {
                o = y;
            }
        }
        g.replaceUses(x, y);
        dead[i] = true;
        changed = true;
    }
    if (changed) {
        g.eraseOps(dead);
    }
    return changed;
}

bool removeDeadNodes(Graph& g) {
    auto prod = g.producers();
    std::vector<bool> live(g.names.size(), false);
    std::vector<bool> opLive(g.ops.size(), false);
    std::deque<int> work;
    for (auto o : g.outputs) {
        if (o >= 0 && !live[o]) {
            live[o] = true;
            work.push_back(o);
        }
    }
    while (!work.empty()) {
        int t = work.front();
        work.pop_front();
        int p = prod[t];
        if (p < 0 || opLive[p]) {
            continue;
        }
        opLive[p] = true;
        for (auto i : g.ops[p]->inputs) {
            if (i >= 0 && !live[i]) {
                live[i] = true;
                work.push_back(i);
            }
        }
    }
    bool changed = false;
    std::vector<bool> dead(g.ops.size());
    for (size_t i = 0; i < g.ops.size(); ++i) {
        dead[i] = !opLive[i];
        changed = changed || dead[i];
    }
    if (changed) {
        g.eraseOps(dead);
    }
    for (auto it = g.constants.begin(); it != g.constants.end();) {
        if (!live[it->first]) {
            it = g.constants.erase(it);
            changed = true;
        } else {
            ++it;
        }
    }
    return changed;
}

bool eliminateTranspose(Graph& g) {
    bool changed = false;
    auto prod = g.producers();
    for (auto& opPtr : g.ops) {
        auto& op = *opPtr;
        if (op.type != Schema::OpType::Transpose || op.inputs.empty() || op.inputs[0] < 0) {
            continue;
        }
        int p = prod[op.inputs[0]];
        if (p < 0) {
            continue;
        }
        auto& first = *g.ops[p];
        if (first.type != Schema::OpType::Transpose || first.inputs.empty() || first.inputs[0] < 0) {
            continue;
        }
        auto p1 = first.param.AsTransposeParam();
        auto p2 = op.param.AsTransposeParam();
        if (!p1 || !p2 || p1->perm.empty() || p1->perm.size() != p2->perm.size()) {
            continue;  // an empty perm means "reverse", whose rank we do not know here
        }
        // y[i] = t[p2[i]] = x[p1[p2[i]]]
        std::vector<int> q(p2->perm.size());
        bool valid = true, identity = true;
        for (size_t i = 0; i < q.size(); ++i) {
            int a = p2->perm[i];
            if (a < 0 || a >= (int)q.size() || p1->perm[a] < 0 || p1->perm[a] >= (int)q.size()) {
                valid = false;
                break;
            }
            q[i] = p1->perm[a];
            identity = identity && q[i] == (int)i;
        }
        if (!valid) {
            continue;
        }
        op.inputs[0] = first.inputs[0];
        if (identity) {
            op.type = Schema::OpType::Identity;
            op.param.Reset();
        } else {
            p2->perm = q;
        }
        changed = true;
        prod = g.producers();
    }
    return changed;
}

}  // namespace Convert
}  // namespace MNN
