// Composite patterns written as elementwise chains -> one op:
//   LayerNorm: m = ReduceMean(x); d = x - m; v = ReduceMean(d^2 or d*d); y = d / Sqrt(v + eps) [* gamma] [+ beta]
//   GELU:      0.5 * x * (1 + Erf(x / sqrt(2)))  (also x * 0.7071..., and the 0.5 in any position)
//   HardSwish: x * HardSigmoid(x) (alpha 1/6, beta 0.5) or x * Clip(x + 3, 0, 6) / 6 (or * 1/6)
//   SiLU:      x * Sigmoid(x) (Swish; EfficientNet, YOLO)
#include <algorithm>
#include <cmath>
#include "Passes.hpp"

namespace MNN {
namespace Convert {

namespace {
using B = Schema::BinaryOpType;
using U = Schema::UnaryOpType;

struct Ctx {
    Graph& g;
    std::vector<int> prod;
    std::vector<std::vector<int>> cons;
    std::vector<bool> dead;
    explicit Ctx(Graph& graph) : g(graph), prod(graph.producers()), cons(graph.consumers()), dead(graph.ops.size()) {}
    Schema::OpT* producer(int t) {
        if (t < 0 || prod[t] < 0 || dead[prod[t]]) {
            return nullptr;
        }
        return g.ops[prod[t]].get();
    }
    /** the single live consumer of t when t is an intermediate read by exactly `uses` slots */
    bool onlyUses(int t, size_t uses) {
        return t >= 0 && !g.isOutput(t) && cons[t].size() == uses;
    }
    Schema::OpT* soleConsumer(int t) {
        if (!onlyUses(t, 1) || dead[cons[t][0]]) {
            return nullptr;
        }
        return g.ops[cons[t][0]].get();
    }
    int indexOf(const Schema::OpT* op) {
        for (size_t i = 0; i < g.ops.size(); ++i) {
            if (g.ops[i].get() == op)
                return (int)i;
        }
        return -1;
    }
    void kill(const Schema::OpT* op) {
        dead[indexOf(op)] = true;
    }
};

bool isBinary(const Schema::OpT* op, B type) {
    return op && binaryType(*op) == (int)type && op->inputs.size() == 2 && op->outputs.size() == 1;
}
bool isUnary(const Schema::OpT* op, U type) {
    return op && unaryType(*op) == (int)type && op->inputs.size() == 1 && op->outputs.size() == 1;
}
bool near(float a, float b, float tol = 1e-3f) {
    return std::fabs(a - b) <= tol * std::max(1.0f, std::fabs(b));
}
/** for a commutative binary op with one scalar constant operand: the other operand and the value */
bool splitScalar(Ctx& c, const Schema::OpT* op, int* other, float* value) {
    if (scalarValue(c.g, op->inputs[1], value)) {
        *other = op->inputs[0];
        return true;
    }
    if (scalarValue(c.g, op->inputs[0], value)) {
        *other = op->inputs[1];
        return true;
    }
    return false;
}
/** the operand of binary op that is not t (-1 if t is not an operand) */
int otherOperand(const Schema::OpT* op, int t) {
    if (op->inputs[0] == t)
        return op->inputs[1];
    if (op->inputs[1] == t)
        return op->inputs[0];
    return -1;
}

/** the reduce axes of a ReduceMean op as negative trailing axes [-k..-1], or empty */
std::vector<int> meanAxes(Ctx& c, const Schema::OpT* op) {
    if (!op || op->type != Schema::OpType::Reduce || op->outputs.size() != 1)
        return {};
    auto p = op->param.AsReduceParam();
    if (!p || p->type != Schema::ReduceType::MEAN || !p->keepDims)
        return {};
    std::vector<int64_t> axes;
    if (op->inputs.size() > 1 && op->inputs[1] >= 0) {
        auto b = c.g.constant(op->inputs[1]);
        if (!b || !blobInts(*b, &axes))
            return {};
    } else {
        for (auto a : p->axes)
            axes.push_back(a);
    }
    if (axes.empty())
        return {};
    std::vector<int> sorted(axes.begin(), axes.end());
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 0; i < sorted.size(); ++i) {
        if (sorted[i] != -(int)sorted.size() + (int)i)
            return {};
    }
    return sorted;
}
}  // namespace

bool fuseLayerNorm(Graph& g) {
    Ctx c(g);
    bool changed = false;
    for (size_t i = 0; i < g.ops.size(); ++i) {
        if (c.dead[i])
            continue;
        auto sub = g.ops[i].get();
        if (!isBinary(sub, B::SUB))
            continue;
        int x = sub->inputs[0];
        auto mean1 = c.producer(sub->inputs[1]);
        auto axes = meanAxes(c, mean1);
        if (axes.empty() || mean1->inputs[0] != x || !c.onlyUses(mean1->outputs[0], 1))
            continue;
        int d = sub->outputs[0];
        if (g.isOutput(d))
            continue;
        Schema::OpT *sq = nullptr, *div = nullptr;
        bool other = false, squareByMul = false;
        for (auto k : c.cons[d]) {
            auto o = g.ops[k].get();
            float e;
            if (isBinary(o, B::POW) && o->inputs[0] == d && scalarValue(g, o->inputs[1], &e) && e == 2.0f) {
                sq = o;
            } else if (isBinary(o, B::MUL) && o->inputs[0] == d && o->inputs[1] == d) {
                sq = o;
                squareByMul = true;
            } else if (isBinary(o, B::DIV) && o->inputs[0] == d && o->inputs[1] != d) {
                div = o;
            } else {
                other = true;
            }
        }
        if (!sq || !div || other || c.cons[d].size() != (squareByMul ? 3u : 2u))
            continue;
        auto mean2 = c.soleConsumer(sq->outputs[0]);
        if (meanAxes(c, mean2) != axes || mean2->inputs[0] != sq->outputs[0])
            continue;
        auto addEps = c.soleConsumer(mean2->outputs[0]);
        int vIn;
        float eps;
        if (!isBinary(addEps, B::ADD) || !splitScalar(c, addEps, &vIn, &eps) || vIn != mean2->outputs[0])
            continue;
        auto sqrtOp = c.soleConsumer(addEps->outputs[0]);
        if (!isUnary(sqrtOp, U::SQRT) || div->inputs[1] != sqrtOp->outputs[0] || !c.onlyUses(sqrtOp->outputs[0], 1))
            continue;
        // optional affine part
        int out = div->outputs[0];
        int gamma = -1, beta = -1;
        std::vector<Schema::OpT*> chain = {mean1, sub, sq, mean2, addEps, sqrtOp, div};
        auto trimmed = [&](int t) -> int {
            auto b = g.constant(t);
            if (!b || b->dataType != Schema::DataType::DT_FLOAT)
                return -2;
            std::vector<int> dims = b->dims;
            while (dims.size() > axes.size() && dims[0] == 1)
                dims.erase(dims.begin());
            if (dims.size() > axes.size())
                return -2;
            if (dims == b->dims)
                return t;
            auto nb = cloneBlob(*b);
            nb->dims = dims;
            return g.addConstant(g.names[t] + "_ln", std::move(nb));
        };
        auto mul = c.soleConsumer(out);
        if (isBinary(mul, B::MUL)) {
            int other = otherOperand(mul, out);
            int t = other >= 0 ? trimmed(other) : -2;
            if (t >= 0) {
                gamma = t;
                chain.push_back(mul);
                out = mul->outputs[0];
                auto add = c.soleConsumer(out);
                if (isBinary(add, B::ADD)) {
                    int o2 = otherOperand(add, out);
                    int t2 = o2 >= 0 ? trimmed(o2) : -2;
                    if (t2 >= 0) {
                        beta = t2;
                        chain.push_back(add);
                        out = add->outputs[0];
                    }
                }
            }
        }
        for (auto o : chain)
            c.kill(o);
        std::vector<int> in = {x, gamma, beta};
        while (!in.empty() && in.back() < 0)
            in.pop_back();
        auto ln = g.addOp(Schema::OpType::LayerNorm, div->name + "_layernorm", in, {out});
        ln->param.Set(Schema::NormParamT());
        auto p = ln->param.AsNormParam();
        p->axis = axes[0];
        p->epsilon = eps;
        c.dead.push_back(false);
        changed = true;
    }
    if (changed)
        g.eraseOps(c.dead);
    return changed;
}

bool fuseGelu(Graph& g) {
    Ctx c(g);
    bool changed = false;
    size_t count = g.ops.size();
    for (size_t i = 0; i < count; ++i) {
        if (c.dead[i])
            continue;
        auto erf = g.ops[i].get();
        if (!isUnary(erf, U::ERF))
            continue;
        auto scale = c.producer(erf->inputs[0]);
        int x;
        float v;
        if (!scale || !c.onlyUses(scale->outputs[0], 1))
            continue;
        if (isBinary(scale, B::DIV) && scalarValue(g, scale->inputs[1], &v) && near(v, std::sqrt(2.0f))) {
            x = scale->inputs[0];
        } else if (isBinary(scale, B::MUL) && splitScalar(c, scale, &x, &v) && near(v, std::sqrt(0.5f))) {
        } else {
            continue;
        }
        auto add = c.soleConsumer(erf->outputs[0]);
        int e;
        if (!isBinary(add, B::ADD) || !splitScalar(c, add, &e, &v) || !near(v, 1.0f))
            continue;
        // remaining: multiply by x and by 0.5 in any order
        auto m1 = c.soleConsumer(add->outputs[0]);
        if (!isBinary(m1, B::MUL))
            continue;
        int other = otherOperand(m1, add->outputs[0]);
        std::vector<Schema::OpT*> chain = {scale, erf, add, m1};
        int out;
        if (other == x) {  // x * (1 + erf) then * 0.5
            auto m2 = c.soleConsumer(m1->outputs[0]);
            int o;
            if (!isBinary(m2, B::MUL) || !splitScalar(c, m2, &o, &v) || !near(v, 0.5f))
                continue;
            chain.push_back(m2);
            out = m2->outputs[0];
        } else {
            auto half = c.producer(other);
            int o;
            if (half && isBinary(half, B::MUL) && splitScalar(c, half, &o, &v) && o == x && near(v, 0.5f) &&
                c.onlyUses(half->outputs[0], 1)) {  // (0.5 * x) * (1 + erf)
                chain.push_back(half);
                out = m1->outputs[0];
            } else if (splitScalar(c, m1, &o, &v) && near(v, 0.5f)) {  // (1 + erf) * 0.5 then * x
                auto m2 = c.soleConsumer(m1->outputs[0]);
                if (!isBinary(m2, B::MUL) || otherOperand(m2, m1->outputs[0]) != x)
                    continue;
                chain.push_back(m2);
                out = m2->outputs[0];
            } else {
                continue;
            }
        }
        for (auto o : chain)
            c.kill(o);
        auto op = g.addOp(Schema::OpType::UnaryOp, erf->name + "_gelu", {x}, {out});
        op->param.Set(Schema::UnaryParamT());
        op->param.AsUnaryParam()->type = U::GELU;
        c.dead.push_back(false);
        changed = true;
    }
    if (changed)
        g.eraseOps(c.dead);
    return changed;
}

bool fuseHardSwish(Graph& g) {
    Ctx c(g);
    bool changed = false;
    size_t count = g.ops.size();
    auto emit = [&](const std::vector<Schema::OpT*>& chain, int x, int out, const std::string& name) {
        for (auto o : chain)
            c.kill(o);
        auto op = g.addOp(Schema::OpType::UnaryOp, name + "_hardswish", {x}, {out});
        op->param.Set(Schema::UnaryParamT());
        op->param.AsUnaryParam()->type = U::HARD_SWISH;
        c.dead.push_back(false);
        changed = true;
    };
    for (size_t i = 0; i < count; ++i) {
        if (c.dead[i])
            continue;
        auto op = g.ops[i].get();
        // x * HardSigmoid(x)
        if (isUnary(op, U::HARD_SIGMOID)) {
            auto p = op->param.AsUnaryParam();
            if (!p || !near(p->alpha, 1.0f / 6.0f, 1e-4f) || !near(p->beta, 0.5f, 1e-4f))
                continue;
            auto m = c.soleConsumer(op->outputs[0]);
            int x = op->inputs[0];
            if (!isBinary(m, B::MUL) || otherOperand(m, op->outputs[0]) != x)
                continue;
            emit({op, m}, x, m->outputs[0], op->name);
            continue;
        }
        // x * Clip(x + 3, 0, 6) / 6
        if (!isUnary(op, U::CLIP))
            continue;
        auto p = op->param.AsUnaryParam();
        if (!p || p->alpha != 0.0f || p->beta != 6.0f)
            continue;
        auto add = c.producer(op->inputs[0]);
        int x;
        float v;
        if (!isBinary(add, B::ADD) || !splitScalar(c, add, &x, &v) || v != 3.0f || !c.onlyUses(add->outputs[0], 1))
            continue;
        auto m = c.soleConsumer(op->outputs[0]);
        if (!m || m->type != Schema::OpType::BinaryOp || m->inputs.size() != 2)
            continue;
        int o;
        if (isBinary(m, B::MUL) && otherOperand(m, op->outputs[0]) == x) {
            // (x * clip) / 6  or  (x * clip) * (1/6)
            auto d = c.soleConsumer(m->outputs[0]);
            if (isBinary(d, B::DIV) && d->inputs[0] == m->outputs[0] && scalarValue(g, d->inputs[1], &v) && v == 6.0f) {
                emit({add, op, m, d}, x, d->outputs[0], op->name);
            } else if (isBinary(d, B::MUL) && splitScalar(c, d, &o, &v) && near(v, 1.0f / 6.0f, 1e-6f)) {
                emit({add, op, m, d}, x, d->outputs[0], op->name);
            }
        } else if ((isBinary(m, B::DIV) && m->inputs[0] == op->outputs[0] && scalarValue(g, m->inputs[1], &v) &&
                    v == 6.0f) ||
                   (isBinary(m, B::MUL) && splitScalar(c, m, &o, &v) && near(v, 1.0f / 6.0f, 1e-6f))) {
            // x * (clip / 6)
            auto m2 = c.soleConsumer(m->outputs[0]);
            if (isBinary(m2, B::MUL) && otherOperand(m2, m->outputs[0]) == x) {
                emit({add, op, m, m2}, x, m2->outputs[0], op->name);
            }
        }
    }
    if (changed)
        g.eraseOps(c.dead);
    return changed;
}

bool fuseSilu(Graph& g) {
    Ctx c(g);
    bool changed = false;
    size_t count = g.ops.size();
    for (size_t i = 0; i < count; ++i) {
        if (c.dead[i])
            continue;
        auto sig = g.ops[i].get();
        if (!isUnary(sig, U::SIGMOID))
            continue;
        auto m = c.soleConsumer(sig->outputs[0]);
        const int x = sig->inputs[0];
        if (!isBinary(m, B::MUL) || otherOperand(m, sig->outputs[0]) != x)
            continue;
        c.kill(sig);
        c.kill(m);
        auto op = g.addOp(Schema::OpType::UnaryOp, sig->name + "_silu", {x}, {m->outputs[0]});
        op->param.Set(Schema::UnaryParamT());
        op->param.AsUnaryParam()->type = U::SILU;
        c.dead.push_back(false);
        changed = true;
    }
    if (changed)
        g.eraseOps(c.dead);
    return changed;
}

}  // namespace Convert
}  // namespace MNN
