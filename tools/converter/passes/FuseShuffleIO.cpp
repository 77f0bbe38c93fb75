// ShuffleNet v2's Concat -> channel shuffle -> Slice halves as one ChannelShuffle op: a Concat along
// channels read only by a ChannelShuffle becomes the shuffle's inputs; Slices along channels that
// split the shuffle's output into m >= 2 equal contiguous parts become its m outputs.
#include <algorithm>
#include "Passes.hpp"

namespace MNN {
namespace Convert {

namespace {

// the Concat producing t, joining 4-D tensors along axis 1 (1 or -3), read only by `reader`
int channelConcat(const Graph& g, const std::vector<int>& prod, const std::vector<std::vector<int>>& cons, int t,
                  int reader) {
    const int p = t >= 0 ? prod[t] : -1;
    if (p < 0 || soleConsumer(g, cons, t) != reader) {
        return -1;
    }
    auto& op = *g.ops[p];
    auto ap = op.param.AsAxisParam();
    const int axis = ap ? ap->axis : 0;
    if (op.type != Schema::OpType::Concat || op.outputs.size() != 1 || op.inputs.empty() || (axis != 1 && axis != -3)) {
        return -1;
    }
    for (auto x : op.inputs) {
        if (x < 0) {
            return -1;
        }
    }
    return p;
}

// a Concat along channels read only by a ChannelShuffle: the shuffle reads the Concat's inputs
bool foldConcatIntoShuffle(Graph& g) {
    auto prod = g.producers();
    auto cons = g.consumers();
    std::vector<std::pair<int, int>> found;  // (shuffle op, concat op)
    std::vector<int> joined;                 // inputs of the concats, to check they are 4-D
    for (size_t i = 0; i < g.ops.size(); ++i) {
        if (g.ops[i]->type != Schema::OpType::ChannelShuffle) {
            continue;
        }
        for (auto t : g.ops[i]->inputs) {
            const int c = channelConcat(g, prod, cons, t, (int)i);
            if (c >= 0) {
                found.push_back({(int)i, c});
                joined.insert(joined.end(), g.ops[c]->inputs.begin(), g.ops[c]->inputs.end());
            }
        }
    }
    if (found.empty()) {
        return false;
    }
    std::vector<std::vector<int>> shapes;
    if (!staticShapes(g, joined, &shapes)) {
        return false;
    }
    std::vector<bool> fold(g.ops.size(), false);
    size_t k = 0;
    for (auto& f : found) {
        bool fourD = true;
        for (size_t j = 0; j < g.ops[f.second]->inputs.size(); ++j, ++k) {
            fourD = fourD && shapes[k].size() == 4;
        }
        fold[f.second] = fourD;
    }
    bool changed = false;
    for (auto& f : found) {
        if (!fold[f.second]) {
            continue;
        }
        auto& sh = *g.ops[f.first];
        std::vector<int> in;
        for (auto t : sh.inputs) {
            const int c = t >= 0 ? prod[t] : -1;
            if (c >= 0 && fold[c]) {
                in.insert(in.end(), g.ops[c]->inputs.begin(), g.ops[c]->inputs.end());
            } else {
                in.push_back(t);
            }
        }
        sh.inputs = in;
        changed = true;
    }
    if (changed) {
        g.eraseOps(fold);
    }
    return changed;
}

// [start, end) of a Slice of t along axis 1 (constant inputs, step 1) of a tensor with `channels`
// channels, clamped as ONNX does; false for anything else
bool channelSlice(const Graph& g, const Schema::OpT& op, int t, int64_t channels, int64_t* start, int64_t* end) {
    if (op.type != Schema::OpType::Slice || op.outputs.size() != 1 || op.inputs.size() < 4 || op.inputs.size() > 5 ||
        op.inputs[0] != t) {
        return false;
    }
    std::vector<int64_t> s, e, a, st;
    if (!constantInts(g, op.inputs[1], &s) || !constantInts(g, op.inputs[2], &e) ||
        !constantInts(g, op.inputs[3], &a) || s.size() != 1 || e.size() != 1 || a.size() != 1 ||
        (a[0] != 1 && a[0] != -3)) {
        return false;
    }
    if (op.inputs.size() == 5 && op.inputs[4] >= 0 &&
        (!constantInts(g, op.inputs[4], &st) || st != std::vector<int64_t>{1})) {
        return false;
    }
    auto clamp = [channels](int64_t v) {
        if (v < 0) {
            v = v < -channels ? 0 : v + channels;
        }
        return std::min(v, channels);
    };
    *start = clamp(s[0]);
    *end = clamp(e[0]);
    return true;
}

struct Part {
    int64_t start, end;
    int op;
};

// Slices covering a ChannelShuffle's output in m >= 2 equal parts: they become its m outputs
bool splitShuffleOutputs(Graph& g) {
    auto cons = g.consumers();
    std::vector<int> shuffles, outs;
    for (size_t i = 0; i < g.ops.size(); ++i) {
        auto& op = *g.ops[i];
        if (op.type != Schema::OpType::ChannelShuffle || op.outputs.size() != 1 || op.outputs[0] < 0 ||
            g.isOutput(op.outputs[0]) || cons[op.outputs[0]].size() < 2) {
            continue;
        }
        bool slices = true;
        for (auto c : cons[op.outputs[0]]) {
            slices = slices && g.ops[c]->type == Schema::OpType::Slice;
        }
        if (slices) {
            shuffles.push_back((int)i);
            outs.push_back(op.outputs[0]);
        }
    }
    if (shuffles.empty()) {
        return false;
    }
    std::vector<std::vector<int>> shapes;
    if (!staticShapes(g, outs, &shapes)) {
        return false;
    }
    std::vector<bool> dead(g.ops.size(), false);
    bool changed = false;
    for (size_t k = 0; k < shuffles.size(); ++k) {
        const int t = outs[k];
        if (shapes[k].size() != 4 || shapes[k][1] <= 0) {
            continue;
        }
        const int64_t channels = shapes[k][1];
        auto& readers = cons[t];
        const int64_t m = (int64_t)readers.size();
        std::vector<Part> parts;
        bool ok = channels % m == 0;
        for (auto r : readers) {
            Part p{0, 0, r};
            // each reader once (the tensor only in its data slot) and a channel slice
            ok = ok && std::count(readers.begin(), readers.end(), r) == 1 &&
                 channelSlice(g, *g.ops[r], t, channels, &p.start, &p.end);
            parts.push_back(p);
        }
        if (!ok) {
            continue;
        }
        std::sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return a.start < b.start; });
        const int64_t size = channels / m;
        for (int64_t j = 0; j < m; ++j) {
            ok = ok && parts[j].start == j * size && parts[j].end == (j + 1) * size;
        }
        if (!ok) {
            continue;
        }
        auto& sh = *g.ops[shuffles[k]];
        sh.outputs.clear();
        for (auto& p : parts) {
            sh.outputs.push_back(g.ops[p.op]->outputs[0]);
            dead[p.op] = true;
        }
        changed = true;
    }
    if (changed) {
        g.eraseOps(dead);
    }
    return changed;
}
}  // namespace

bool fuseChannelShuffleIO(Graph& g) {
    bool changed = foldConcatIntoShuffle(g);
    changed |= splitShuffleOutputs(g);
    return changed;
}

}  // namespace Convert
}  // namespace MNN
