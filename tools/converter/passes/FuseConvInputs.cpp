// Squeeze-excite scale and residual Add into the convolution. Scale: Mul(X, S) with X [N, C, H, W] and S
// [1 or N, C, 1, 1] (neither constant), read only by a Convolution as its X, becomes that
// convolution's fourth input: Convolution(X, W, B, S) = conv(X * S) (ShapeConvolution.cpp). The CPU
// then scales the convolution's weights per image where they are fewer than X's positions
// (efficientnet / mobilenet_v3's projections), or X into scratch, instead of a separate pass over the
// expanded tensor. Static shapes only; runs once after the other passes.
#include "Passes.hpp"

namespace MNN {
namespace Convert {

namespace {

struct Candidate {
    int mul, conv;
    int a, b;  // the Mul's inputs
};

/** X [N, C, H...] (the Mul's output shape) and S [1 or N, C, 1...] of the same rank */
bool scaleOf(const std::vector<int>& x, const std::vector<int>& s, const std::vector<int>& out) {
    if (x != out || x.size() < 3 || s.size() != x.size() || (s[0] != 1 && s[0] != x[0]) || s[1] != x[1]) {
        return false;
    }
    for (size_t i = 2; i < s.size(); ++i) {
        if (s[i] != 1) {
            return false;
        }
    }
    // a 1x1 plane is a scale too, but then X and S are alike: leave that Mul alone
    for (size_t i = 2; i < x.size(); ++i) {
        if (x[i] != 1) {
            return true;
        }
    }
    return false;
}

}  // namespace

bool fuseInputScale(Graph& g) {
    auto cons = g.consumers();
    std::vector<Candidate> found;
    std::vector<int> tensors;
    for (size_t i = 0; i < g.ops.size(); ++i) {
        auto& mul = *g.ops[i];
        if (binaryType(mul) != (int)Schema::BinaryOpType::MUL || mul.inputs.size() != 2 || mul.outputs.size() != 1 ||
            mul.inputs[0] < 0 || mul.inputs[1] < 0 || g.isConstant(mul.inputs[0]) || g.isConstant(mul.inputs[1])) {
            continue;
        }
        const int c = soleConsumer(g, cons, mul.outputs[0]);
        if (c < 0) {
            continue;
        }
        auto& conv = *g.ops[c];
        if (conv.type != Schema::OpType::Convolution || conv.inputs.size() < 2 || conv.inputs.size() > 3 ||
            conv.inputs[0] != mul.outputs[0] || conv.outputs.size() != 1 || !g.isConstant(conv.inputs[1])) {
            continue;
        }
        found.push_back({(int)i, c, mul.inputs[0], mul.inputs[1]});
        tensors.insert(tensors.end(), {mul.inputs[0], mul.inputs[1], mul.outputs[0]});
    }
    std::vector<std::vector<int>> shapes;
    if (found.empty() || !staticShapes(g, tensors, &shapes)) {
        return false;
    }
    std::vector<bool> dead(g.ops.size(), false);
    bool changed = false;
    for (size_t k = 0; k < found.size(); ++k) {
        const auto& f = found[k];
        const auto &sa = shapes[3 * k], &sb = shapes[3 * k + 1], &out = shapes[3 * k + 2];
        int x = -1, s = -1;
        if (scaleOf(sa, sb, out)) {
            x = f.a;
            s = f.b;
        } else if (scaleOf(sb, sa, out)) {
            x = f.b;
            s = f.a;
        } else {
            continue;
        }
        auto& conv = *g.ops[f.conv];
        const int bias = conv.inputs.size() > 2 ? conv.inputs[2] : -1;
        conv.inputs = {x, conv.inputs[1], bias, s};
        dead[f.mul] = true;
        changed = true;
    }
    if (changed) {
        g.eraseOps(dead);
    }
    return changed;
}

// Residual: Add(Y, R) where Y is a Convolution's output (no activation, read only by the Add) and R
// has Y's shape and is computed before that convolution -> Convolution(X, W, B, S or -1, R) writing
// the Add's output: Y = act(conv + B + R), so the Relu after a ResNet block's Add fuses in too
// (fuseActivation runs again after this). The CPU adds R to each tile as it is stored.
bool fuseResidualAdd(Graph& g) {
    auto cons = g.consumers();
    auto prod = g.producers();
    struct Found {
        int add, conv, r;
    };
    std::vector<Found> found;
    std::vector<int> tensors;
    std::vector<int> position(g.ops.size());
    for (size_t i = 0; i < g.ops.size(); ++i) {
        position[i] = (int)i;
    }
    for (size_t i = 0; i < g.ops.size(); ++i) {
        auto& add = *g.ops[i];
        if (binaryType(add) != (int)Schema::BinaryOpType::ADD || add.inputs.size() != 2 || add.outputs.size() != 1 ||
            add.inputs[0] < 0 || add.inputs[1] < 0 || add.inputs[0] == add.inputs[1] || g.isConstant(add.inputs[0]) ||
            g.isConstant(add.inputs[1])) {
            continue;
        }
        // the later convolution of the two operands takes the other as R (R must exist when it runs)
        int best = -1, bestR = -1;
        for (int side = 0; side < 2; ++side) {
            const int y = add.inputs[side], r = add.inputs[1 - side];
            const int c = prod[y];
            if (c < 0 || soleConsumer(g, cons, y) != (int)i) {
                continue;
            }
            auto& conv = *g.ops[c];
            auto cp = conv.param.AsConvParam();
            if (conv.type != Schema::OpType::Convolution || !cp || cp->activation != Schema::FusedActivation::NONE ||
                conv.outputs.size() != 1 || conv.inputs.size() < 2 || conv.inputs.size() > 4) {
                continue;
            }
            if (prod[r] >= 0 && prod[r] >= c) {
                continue;  // R is computed after this convolution
            }
            if (best < 0 || c > best) {
                best = c;
                bestR = r;
            }
        }
        if (best < 0) {
            continue;
        }
        found.push_back({(int)i, best, bestR});
        tensors.insert(tensors.end(), {g.ops[best]->outputs[0], bestR});
    }
    std::vector<std::vector<int>> shapes;
    if (found.empty() || !staticShapes(g, tensors, &shapes)) {
        return false;
    }
    std::vector<bool> dead(g.ops.size(), false);
    bool changed = false;
    for (size_t k = 0; k < found.size(); ++k) {
        const auto& f = found[k];
        if (shapes[2 * k] != shapes[2 * k + 1] || dead[f.conv]) {
            continue;  // R broadcast over Y: not a residual
        }
        auto& conv = *g.ops[f.conv];
        conv.inputs.resize(5, -1);
        conv.inputs[4] = f.r;
        conv.outputs[0] = g.ops[f.add]->outputs[0];
        dead[f.add] = true;
        changed = true;
    }
    if (changed) {
        g.eraseOps(dead);
    }
    return changed;
}

}  // namespace Convert
}  // namespace MNN
