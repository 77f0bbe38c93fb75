// LSTM / GRU / RNN against (1) PyTorch (bidirectional LSTM and GRU with initial states), and (2) an
// explicit step-by-step implementation written here from the ONNX equations (double precision, one
// time step at a time), covering reverse / bidirectional, sequence_lens, peepholes, clip,
// input_forget, linear_before_reset 0/1, layout 1, custom activations with alpha/beta and output
// subsets. ONNX's own node tests run in OnnxNodeCasesTest.cpp.
#include <math.h>
#include <functional>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
std::vector<float> gen(int n, double seed) {  // same formula as the PyTorch script below
    std::vector<float> v(n);
    for (int i = 0; i < n; ++i) {
        v[i] = (float)(0.5 * sin(0.7 * i + seed));
    }
    return v;
}

struct RnnCase {
    Schema::OpType type = Schema::OpType::LSTM;
    int seq = 3, batch = 2, in = 3, hidden = 2;
    Schema::RnnDirection direction = Schema::RnnDirection::FORWARD;
    std::vector<std::string> acts;
    std::vector<float> alpha, beta;
    float clip = 0;
    bool inputForget = false;
    bool lbr = false;
    int layout = 0;
    bool bias = true, init = true, peep = false;
    std::vector<int> lens;  // empty: none
    int numOutputs = 3;
    int dirs() const {
        return direction == Schema::RnnDirection::BIDIRECTIONAL ? 2 : 1;
    }
    int gates() const {
        return type == Schema::OpType::LSTM ? 4 : (type == Schema::OpType::GRU ? 3 : 1);
    }
};

struct RnnData {
    std::vector<float> x, w, r, b, h0, c0, p;
};

RnnData makeData(const RnnCase& c, double seed = 1.0) {
    RnnData d;
    const int D = c.dirs(), G = c.gates(), H = c.hidden;
    d.x = gen(c.seq * c.batch * c.in, seed);
    d.w = gen(D * G * H * c.in, seed + 1);
    d.r = gen(D * G * H * H, seed + 2);
    d.b = gen(D * 2 * G * H, seed + 3);
    d.h0 = gen(D * c.batch * H, seed + 4);
    d.c0 = gen(D * c.batch * H, seed + 5);
    d.p = gen(D * 3 * H, seed + 6);
    return d;
}

// layout-0 data of [A, B, rest] transposed to [B, A, rest]
std::vector<float> swap01(const std::vector<float>& v, int a, int b, int rest) {
    std::vector<float> o(v.size());
    for (int i = 0; i < a; ++i) {
        for (int j = 0; j < b; ++j) {
            for (int k = 0; k < rest; ++k) {
                o[((size_t)j * a + i) * rest + k] = v[((size_t)i * b + j) * rest + k];
            }
        }
    }
    return o;
}

struct RnnResult {
    ErrorCode code;
    std::vector<float> y, yh, yc;
};

RnnResult runEngine(const RnnCase& c, const RnnData& d) {
    const int D = c.dirs(), G = c.gates(), H = c.hidden;
    ModelBuilder mb;
    std::vector<int> xDims = c.layout == 0 ? std::vector<int>{c.seq, c.batch, c.in} : std::vector<int>{c.batch, c.seq, c.in};
    std::vector<int> sDims = c.layout == 0 ? std::vector<int>{D, c.batch, H} : std::vector<int>{c.batch, D, H};
    mb.input("x", xDims);
    mb.constant("w", {D, G * H, c.in}, d.w);
    mb.constant("r", {D, G * H, H}, d.r);
    std::vector<std::string> ins = {"x", "w", "r", "", "", "", "", ""};
    if (c.bias) {
        mb.constant("b", {D, 2 * G * H}, d.b);
        ins[3] = "b";
    }
    if (!c.lens.empty()) {
        mb.constantInt32("lens", {c.batch}, c.lens);
        ins[4] = "lens";
    }
    if (c.init) {
        mb.constant("h0", sDims, c.layout == 0 ? d.h0 : swap01(d.h0, D, c.batch, H));
        ins[5] = "h0";
        if (c.type == Schema::OpType::LSTM) {
            mb.constant("c0", sDims, c.layout == 0 ? d.c0 : swap01(d.c0, D, c.batch, H));
            ins[6] = "c0";
        }
    }
    if (c.peep) {
        mb.constant("p", {D, 3 * H}, d.p);
        ins[7] = "p";
    }
    if (c.type != Schema::OpType::LSTM) {
        ins.resize(6);
    }
    std::vector<std::string> outs = {"y", "yh", "yc"};
    outs.resize(c.numOutputs);
    auto op = mb.op(c.type, "rnn", ins, outs);
    Schema::RnnParamT p;
    p.hiddenSize = H;
    p.direction = c.direction;
    p.activations = c.acts;
    p.activationAlpha = c.alpha;
    p.activationBeta = c.beta;
    p.clip = c.clip;
    p.inputForget = c.inputForget;
    p.linearBeforeReset = c.lbr;
    p.layout = c.layout;
    op->param.Set(p);
    for (auto& o : outs) {
        mb.output(o);
    }
    auto model = mb.finish();
    auto xt = makeTensor(xDims, c.layout == 0 ? d.x : swap01(d.x, c.seq, c.batch, c.in));
    auto res = runModel(model, {{"x", xt.get()}});
    RnnResult out;
    out.code = res.code;
    if (res.code != NO_ERROR) {
        return out;
    }
    auto flat = [](const std::shared_ptr<Tensor>& t) {
        return std::vector<float>(t->host<float>(), t->host<float>() + t->elementSize());
    };
    out.y = flat(res.outputs["y"]);
    if (c.layout == 1) {  // [batch, seq, D, H] -> [seq, D, batch, H]
        std::vector<float> y(out.y.size());
        for (int b = 0; b < c.batch; ++b)
            for (int t = 0; t < c.seq; ++t)
                for (int dd = 0; dd < D; ++dd)
                    for (int j = 0; j < H; ++j)
                        y[(((size_t)t * D + dd) * c.batch + b) * H + j] = out.y[(((size_t)b * c.seq + t) * D + dd) * H + j];
        out.y = y;
    }
    if (c.numOutputs > 1) {
        out.yh = flat(res.outputs["yh"]);
        if (c.layout == 1) {
            out.yh = swap01(out.yh, c.batch, D, H);
        }
    }
    if (c.numOutputs > 2) {
        out.yc = flat(res.outputs["yc"]);
        if (c.layout == 1) {
            out.yc = swap01(out.yc, c.batch, D, H);
        }
    }
    return out;
}

// ---- the explicit reference, straight from the ONNX operator equations (layout 0) ----
double act(const std::string& name, double x, double alpha, double beta) {
    if (name == "Sigmoid") return 1.0 / (1.0 + exp(-x));
    if (name == "Tanh") return tanh(x);
    if (name == "Relu") return x > 0 ? x : 0;
    if (name == "HardSigmoid") return std::max(0.0, std::min(1.0, alpha * x + beta));
    if (name == "LeakyRelu") return x >= 0 ? x : alpha * x;
    if (name == "ScaledTanh") return alpha * tanh(beta * x);
    if (name == "Affine") return alpha * x + beta;
    ADD_FAILURE() << "activation " << name;
    return 0;
}

RnnResult reference(const RnnCase& c, const RnnData& d) {
    const int D = c.dirs(), G = c.gates(), H = c.hidden, I = c.in, S = c.seq, Bn = c.batch;
    const bool lstm = c.type == Schema::OpType::LSTM, gru = c.type == Schema::OpType::GRU;
    std::vector<std::string> names = c.acts;
    if (names.empty()) {
        for (int k = 0; k < D; ++k) {
            if (lstm) names.insert(names.end(), {"Sigmoid", "Tanh", "Tanh"});
            else if (gru) names.insert(names.end(), {"Sigmoid", "Tanh"});
            else names.push_back("Tanh");
        }
    }
    const int per = lstm ? 3 : (gru ? 2 : 1);
    if ((int)names.size() == per && D == 2) {
        auto one = names;
        names.insert(names.end(), one.begin(), one.end());
    }
    // alpha / beta per activation slot, consumed in order by the functions that take them
    std::vector<double> al(names.size(), 0), be(names.size(), 0);
    size_t ai = 0, bi = 0;
    for (size_t k = 0; k < names.size(); ++k) {
        auto& n = names[k];
        if (n == "HardSigmoid") { al[k] = ai < c.alpha.size() ? c.alpha[ai++] : 0.2; be[k] = bi < c.beta.size() ? c.beta[bi++] : 0.5; }
        if (n == "LeakyRelu") { al[k] = ai < c.alpha.size() ? c.alpha[ai++] : 0.01; }
        if (n == "ScaledTanh" || n == "Affine") { al[k] = ai < c.alpha.size() ? c.alpha[ai++] : 1; be[k] = bi < c.beta.size() ? c.beta[bi++] : (n == "Affine" ? 0 : 1); }
    }
    auto clip = [&](double v) { return c.clip > 0 ? std::max(-(double)c.clip, std::min((double)c.clip, v)) : v; };
    RnnResult out;
    out.y.assign((size_t)S * D * Bn * H, 0.0f);
    out.yh.assign((size_t)D * Bn * H, 0.0f);
    out.yc.assign((size_t)D * Bn * H, 0.0f);
    for (int dd = 0; dd < D; ++dd) {
        bool rev = c.direction == Schema::RnnDirection::REVERSE || dd == 1;
        auto F = [&](int k, double v) { int s = dd * per + k; return act(names[s], v, al[s], be[s]); };
        // W_g x: gate g row j
        auto Wx = [&](int g, int j, const float* x) {
            double s = 0;
            for (int k = 0; k < I; ++k) s += d.w[(((size_t)dd * G + g) * H + j) * I + k] * x[k];
            return s;
        };
        auto Rh = [&](int g, int j, const std::vector<double>& h) {
            double s = 0;
            for (int k = 0; k < H; ++k) s += d.r[(((size_t)dd * G + g) * H + j) * H + k] * h[k];
            return s;
        };
        auto Wb = [&](int g, int j) { return c.bias ? (double)d.b[(size_t)dd * 2 * G * H + g * H + j] : 0.0; };
        auto Rb = [&](int g, int j) { return c.bias ? (double)d.b[(size_t)dd * 2 * G * H + G * H + g * H + j] : 0.0; };
        auto P = [&](int g, int j) { return c.peep ? (double)d.p[(size_t)dd * 3 * H + g * H + j] : 0.0; };
        for (int b = 0; b < Bn; ++b) {
            std::vector<double> h(H), cs(H);
            for (int j = 0; j < H; ++j) {
                h[j] = c.init ? d.h0[((size_t)dd * Bn + b) * H + j] : 0;
                cs[j] = (c.init && lstm) ? d.c0[((size_t)dd * Bn + b) * H + j] : 0;
            }
            int len = c.lens.empty() ? S : c.lens[b];
            for (int step = 0; step < len; ++step) {
                int t = rev ? len - 1 - step : step;
                const float* x = &d.x[((size_t)t * Bn + b) * I];
                std::vector<double> hn(H), cn(H);
                for (int j = 0; j < H; ++j) {
                    if (lstm) {  // gates i=0, o=1, f=2, c=3
                        double it = F(0, clip(Wx(0, j, x) + Rh(0, j, h) + P(0, j) * cs[j] + Wb(0, j) + Rb(0, j)));
                        double ft = c.inputForget ? 1 - it : F(0, clip(Wx(2, j, x) + Rh(2, j, h) + P(2, j) * cs[j] + Wb(2, j) + Rb(2, j)));
                        double ct = F(1, clip(Wx(3, j, x) + Rh(3, j, h) + Wb(3, j) + Rb(3, j)));
                        cn[j] = ft * cs[j] + it * ct;
                        double ot = F(0, clip(Wx(1, j, x) + Rh(1, j, h) + P(1, j) * cn[j] + Wb(1, j) + Rb(1, j)));
                        hn[j] = ot * F(2, cn[j]);
                    } else if (gru) {  // gates z=0, r=1, h=2
                        double zt = F(0, clip(Wx(0, j, x) + Rh(0, j, h) + Wb(0, j) + Rb(0, j)));
                        double ht;
                        if (!c.lbr) {
                            double s = 0;
                            for (int k = 0; k < H; ++k) {
                                double rk = F(0, clip(Wx(1, k, x) + Rh(1, k, h) + Wb(1, k) + Rb(1, k)));
                                s += d.r[(((size_t)dd * G + 2) * H + j) * H + k] * rk * h[k];
                            }
                            ht = F(1, clip(Wx(2, j, x) + s + Rb(2, j) + Wb(2, j)));
                        } else {
                            double rt = F(0, clip(Wx(1, j, x) + Rh(1, j, h) + Wb(1, j) + Rb(1, j)));
                            ht = F(1, clip(Wx(2, j, x) + rt * (Rh(2, j, h) + Rb(2, j)) + Wb(2, j)));
                        }
                        hn[j] = (1 - zt) * ht + zt * h[j];
                    } else {
                        hn[j] = F(0, clip(Wx(0, j, x) + Rh(0, j, h) + Wb(0, j) + Rb(0, j)));
                    }
                }
                h = hn;
                if (lstm) cs = cn;
                for (int j = 0; j < H; ++j) out.y[(((size_t)t * D + dd) * Bn + b) * H + j] = (float)h[j];
            }
            for (int j = 0; j < H; ++j) {
                out.yh[((size_t)dd * Bn + b) * H + j] = (float)h[j];
                out.yc[((size_t)dd * Bn + b) * H + j] = (float)cs[j];
            }
        }
    }
    return out;
}

void expectMatchesReference(const RnnCase& c) {
    auto d = makeData(c);
    auto got = runEngine(c, d);
    ASSERT_EQ(got.code, NO_ERROR);
    auto want = reference(c, d);
    EXPECT_TRUE(allClose(got.y, want.y, 1e-5f, 1e-4f)) << "Y";
    if (c.numOutputs > 1) {
        EXPECT_TRUE(allClose(got.yh, want.yh, 1e-5f, 1e-4f)) << "Y_h";
    }
    if (c.numOutputs > 2 && c.type == Schema::OpType::LSTM) {
        EXPECT_TRUE(allClose(got.yc, want.yc, 1e-5f, 1e-4f)) << "Y_c";
    }
}

bool failsAtCreate(const RnnCase& c, std::function<void(ModelBuilder&, std::vector<std::string>&)> tweak = nullptr) {
    const int D = c.dirs(), G = c.gates(), H = c.hidden;
    ModelBuilder mb;
    mb.input("x", {c.seq, c.batch, c.in});
    mb.constant("w", {D, G * H, c.in}, std::vector<float>(D * G * H * c.in, 0.1f));
    mb.constant("r", {D, G * H, H}, std::vector<float>(D * G * H * H, 0.1f));
    std::vector<std::string> ins = {"x", "w", "r"};
    if (tweak) {
        tweak(mb, ins);
    }
    auto op = mb.op(c.type, "rnn", ins, {"y", "yh"});
    Schema::RnnParamT p;
    p.hiddenSize = H;
    p.direction = c.direction;
    p.activations = c.acts;
    p.layout = c.layout;
    p.clip = c.clip;
    op->param.Set(p);
    mb.output("y");
    auto model = mb.finish();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ScheduleConfig config;
    return !net || net->createSession(config) == nullptr;
}
} // namespace

// Expected values: /usr/bin/python3, torch 1.13: x = gen(18, 1).reshape(3,2,3), ONNX W = gen(48, 2),
// R = gen(32, 3), B = gen(32, 4), h0 = gen(8, 5), c0 = gen(8, 6) (gen(n, s)[i] = 0.5 sin(0.7 i + s)),
// loaded into torch.nn.LSTM(3, 2, bidirectional=True) with gates reordered i,o,f,c -> i,f,g,o;
// Y permuted from torch's [seq, batch, dir*H] to ONNX [seq, dir, batch, H].
TEST(LSTM, BidirectionalMatchesPyTorch) {
    RnnCase c;
    c.direction = Schema::RnnDirection::BIDIRECTIONAL;
    auto d = makeData(c);
    auto got = runEngine(c, d);
    ASSERT_EQ(got.code, NO_ERROR);
    EXPECT_TRUE(allClose(got.y, {0.1290619f, 0.0586849f, 0.1144104f, 0.2120817f, 0.0853262f, 0.1690075f, -0.009084f,
                                 0.1098052f, 0.1111064f, 0.1151482f, 0.1825556f, 0.1921602f, 0.0416065f, 0.0905558f,
                                 0.0936217f, 0.1451725f, 0.1078976f, 0.1805227f, 0.1398906f, 0.1699437f, -0.0666715f,
                                 0.0439646f, 0.0510034f, -0.000622f},
                         1e-5f));
    EXPECT_TRUE(allClose(got.yh, {0.1078976f, 0.1805227f, 0.1398906f, 0.1699437f, 0.0853262f, 0.1690075f, -0.009084f,
                                  0.1098052f},
                         1e-5f));
    EXPECT_TRUE(allClose(got.yc, {0.5182264f, 0.4721743f, 0.5117399f, 0.5069133f, 0.3532855f, 0.5112512f, -0.0213236f,
                                  0.5306025f},
                         1e-5f));
}

// torch.nn.GRU is ONNX GRU with linear_before_reset = 1 (gates z,r,h -> r,z,n). Same script:
// W = gen(36, 7), R = gen(24, 8), B = gen(24, 9), h0 = gen(8, 5), x as above.
TEST(GRU, BidirectionalLinearBeforeResetMatchesPyTorch) {
    RnnCase c;
    c.type = Schema::OpType::GRU;
    c.direction = Schema::RnnDirection::BIDIRECTIONAL;
    c.lbr = true;
    c.numOutputs = 2;
    auto d = makeData(c);
    d.w = gen(36, 7.0);
    d.r = gen(24, 8.0);
    d.b = gen(24, 9.0);
    auto got = runEngine(c, d);
    ASSERT_EQ(got.code, NO_ERROR);
    EXPECT_TRUE(allClose(got.y, {-0.5359111f, -0.4205154f, 0.016853f, 0.1889516f, 0.1895086f, 0.0530103f, 0.4316688f,
                                 0.2684007f, -0.6144449f, -0.2443257f, -0.1108236f, -0.1565519f, 0.2691253f,
                                 0.4333618f, 0.1728637f, 0.0608654f, -0.4827653f, -0.221727f, -0.3036874f,
                                 -0.0622676f, 0.5034927f, 0.3373086f, 0.2069928f, 0.3196363f},
                         1e-5f));
    EXPECT_TRUE(allClose(got.yh, {-0.4827653f, -0.221727f, -0.3036874f, -0.0622676f, 0.1895086f, 0.0530103f,
                                  0.4316688f, 0.2684007f},
                         1e-5f));
}

TEST(LSTM, ReverseWithPeepholesAndSequenceLens) {
    RnnCase c;
    c.seq = 4;
    c.direction = Schema::RnnDirection::REVERSE;
    c.peep = true;
    c.lens = {4, 2};
    expectMatchesReference(c);
}

TEST(LSTM, BidirectionalSequenceLensIncludingZero) {
    RnnCase c;
    c.seq = 3;
    c.batch = 3;
    c.direction = Schema::RnnDirection::BIDIRECTIONAL;
    c.lens = {3, 1, 0};
    c.peep = true;
    expectMatchesReference(c);
}

TEST(LSTM, ClipInputForgetNoBiasNoInit) {
    RnnCase c;
    c.clip = 0.3f;
    c.inputForget = true;
    c.bias = false;
    c.init = false;
    c.hidden = 3;
    expectMatchesReference(c);
}

TEST(LSTM, CustomActivationsWithAlphaBeta) {
    RnnCase c;
    c.direction = Schema::RnnDirection::BIDIRECTIONAL;
    c.acts = {"HardSigmoid", "ScaledTanh", "Tanh", "Sigmoid", "LeakyRelu", "Affine"};
    c.alpha = {0.3f, 1.5f, 0.05f, 0.7f};  // HardSigmoid, ScaledTanh, LeakyRelu, Affine
    c.beta = {0.4f, 0.8f, 0.1f};          // HardSigmoid, ScaledTanh, Affine
    expectMatchesReference(c);
}

TEST(LSTM, Layout1BatchFirst) {
    RnnCase c;
    c.layout = 1;
    c.direction = Schema::RnnDirection::BIDIRECTIONAL;
    c.lens = {2, 3};
    expectMatchesReference(c);
}

TEST(LSTM, OnlyYOutput) {
    RnnCase c;
    c.numOutputs = 1;
    expectMatchesReference(c);
}

TEST(GRU, LinearBeforeResetZeroWithSequenceLens) {
    RnnCase c;
    c.type = Schema::OpType::GRU;
    c.direction = Schema::RnnDirection::BIDIRECTIONAL;
    c.lens = {1, 3};
    c.numOutputs = 2;
    c.hidden = 3;
    expectMatchesReference(c);
}

TEST(GRU, ReverseClipLayout1LinearBeforeReset) {
    RnnCase c;
    c.type = Schema::OpType::GRU;
    c.direction = Schema::RnnDirection::REVERSE;
    c.clip = 0.25f;
    c.lbr = true;
    c.layout = 1;
    c.numOutputs = 2;
    expectMatchesReference(c);
}

TEST(RNN, ForwardReverseBidirectionalRelu) {
    for (auto dir : {Schema::RnnDirection::FORWARD, Schema::RnnDirection::REVERSE,
                     Schema::RnnDirection::BIDIRECTIONAL}) {
        RnnCase c;
        c.type = Schema::OpType::RNN;
        c.direction = dir;
        c.numOutputs = 2;
        c.lens = {3, 2};
        expectMatchesReference(c);
        c.acts = {"Relu"};  // one direction's list is reused for the reverse direction
        expectMatchesReference(c);
    }
}

TEST(RNN, ZeroBatchAndZeroSequence) {
    RnnCase c;
    c.type = Schema::OpType::RNN;
    c.batch = 0;
    c.numOutputs = 2;
    expectMatchesReference(c);
    RnnCase s;
    s.type = Schema::OpType::LSTM;
    s.seq = 0;
    expectMatchesReference(s);  // Y empty, Y_h = initial_h
}

// hand check of one RNN step: H = 1, I = 1, W = 0.5, R = 2, B = (0.1, 0.2), h0 = 0.25, x = 1:
// h1 = tanh(0.5 + 2 * 0.25 + 0.3) = tanh(1.3) = 0.8617232
TEST(RNN, OneStepByHand) {
    ModelBuilder mb;
    mb.input("x", {1, 1, 1});
    mb.constant("w", {1, 1, 1}, {0.5f});
    mb.constant("r", {1, 1, 1}, {2.0f});
    mb.constant("b", {1, 2}, {0.1f, 0.2f});
    mb.constant("h0", {1, 1, 1}, {0.25f});
    auto op = mb.op(Schema::OpType::RNN, "rnn", {"x", "w", "r", "b", "", "h0"}, {"y", "yh"});
    Schema::RnnParamT p;
    p.hiddenSize = 1;
    op->param.Set(p);
    mb.output("yh");
    auto model = mb.finish();
    auto xt = makeTensor({1, 1, 1}, {1.0f});
    auto r = runModel(model, {{"x", xt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_NEAR(r.outputs["yh"]->host<float>()[0], 0.8617232f, 1e-6f);
}

TEST(LSTM, InvalidInputsFailAtCreate) {
    RnnCase c;
    EXPECT_FALSE(failsAtCreate(c));  // the baseline is valid
    RnnCase bad = c;
    bad.acts = {"Sigmoid", "Tanh"};  // LSTM needs 3 per direction
    EXPECT_TRUE(failsAtCreate(bad));
    bad.acts = {"Sigmoid", "Tanh", "Bogus"};
    EXPECT_TRUE(failsAtCreate(bad));
    bad = c;
    bad.layout = 2;
    EXPECT_TRUE(failsAtCreate(bad));
    bad = c;
    bad.clip = -1;
    EXPECT_TRUE(failsAtCreate(bad));
    // W for 2 directions while forward
    EXPECT_TRUE(failsAtCreate(c, [](ModelBuilder& mb, std::vector<std::string>& ins) {
        mb.constant("w2", {2, 8, 3}, std::vector<float>(48, 0.1f));
        ins[1] = "w2";
    }));
    // B of the wrong width
    EXPECT_TRUE(failsAtCreate(c, [](ModelBuilder& mb, std::vector<std::string>& ins) {
        mb.constant("b", {1, 8}, std::vector<float>(8, 0.1f));
        ins.push_back("b");
    }));
    // sequence_lens of float type
    EXPECT_TRUE(failsAtCreate(c, [](ModelBuilder& mb, std::vector<std::string>& ins) {
        mb.constant("lens", {2}, {1, 1});
        ins.insert(ins.end(), {"", "lens"});
    }));
    // initial_h of the wrong batch
    EXPECT_TRUE(failsAtCreate(c, [](ModelBuilder& mb, std::vector<std::string>& ins) {
        mb.constant("h0", {1, 3, 2}, std::vector<float>(6, 0.1f));
        ins.insert(ins.end(), {"", "", "h0"});
    }));
    // X of rank 2
    RnnCase g = c;
    g.type = Schema::OpType::GRU;
    EXPECT_TRUE(failsAtCreate(g, [](ModelBuilder& mb, std::vector<std::string>& ins) {
        mb.input("x2", {3, 2});
        ins[0] = "x2";
    }));
}
