// Attention (ONNX Attention-23/24): a hand-computed case, and a plain reference written here (explicit
// present K/V concatenation, repeated kv heads, an explicit bias matrix, softmax) for grouped heads,
// 3-D and 4-D layouts, past key/value, float and bool masks with short last dims, causal offsets,
// softcap, qk_matmul_output modes and nonpad_kv_seqlen; invalid shapes fail at createSession.
#include <math.h>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
std::vector<float> wave(size_t n, double seed) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) {
        v[i] = (float)sin(0.61 * (double)i + seed);
    }
    return v;
}

struct AttnCase {
    int B = 2, Hq = 4, Hkv = 2, Sq = 3, Skv = 4, D = 3, Dv = 2, P = 0;
    bool threeD = false;
    bool causal = false;
    float scale = 0, softcap = 0;
    int qkMode = -1;  // < 0: no qk output
    std::vector<int> maskDims;  // empty: none
    bool maskBool = false;
    std::vector<int64_t> nonpad;
    int T() const {
        return P + Skv;
    }
};

struct AttnData {
    std::vector<float> q, k, v, pk, pv, mask;  // q/k/v in 4-D [B, H, S, D] order
};

AttnData makeData(const AttnCase& c) {
    AttnData d;
    d.q = wave((size_t)c.B * c.Hq * c.Sq * c.D, 0.1);
    d.k = wave((size_t)c.B * c.Hkv * c.Skv * c.D, 0.7);
    d.v = wave((size_t)c.B * c.Hkv * c.Skv * c.Dv, 1.3);
    d.pk = wave((size_t)c.B * c.Hkv * c.P * c.D, 1.9);
    d.pv = wave((size_t)c.B * c.Hkv * c.P * c.Dv, 2.5);
    size_t mn = 1;
    for (auto m : c.maskDims) {
        mn *= m;
    }
    d.mask = wave(c.maskDims.empty() ? 0 : mn, 3.1);
    if (c.maskBool) {
        for (size_t i = 0; i < d.mask.size(); ++i) {
            d.mask[i] = (i % 3 == 1) ? 0.0f : 1.0f;
        }
    }
    return d;
}

// [B, H, S, X] -> [B, S, H * X]
std::vector<float> to3D(const std::vector<float>& a, int B, int H, int S, int X) {
    std::vector<float> o(a.size());
    for (int b = 0; b < B; ++b)
        for (int h = 0; h < H; ++h)
            for (int s = 0; s < S; ++s)
                for (int x = 0; x < X; ++x)
                    o[(((size_t)b * S + s) * H + h) * X + x] = a[(((size_t)b * H + h) * S + s) * X + x];
    return o;
}

struct AttnOut {
    ErrorCode code = NO_ERROR;
    std::vector<float> y, pk, pv, qk;  // y in 4-D order
};

std::vector<uint8_t> attnModel(const AttnCase& c, const AttnData& d) {
    ModelBuilder mb;
    if (c.threeD) {
        mb.input("q", {c.B, c.Sq, c.Hq * c.D});
        mb.constant("k", {c.B, c.Skv, c.Hkv * c.D}, to3D(d.k, c.B, c.Hkv, c.Skv, c.D));
        mb.constant("v", {c.B, c.Skv, c.Hkv * c.Dv}, to3D(d.v, c.B, c.Hkv, c.Skv, c.Dv));
    } else {
        mb.input("q", {c.B, c.Hq, c.Sq, c.D});
        mb.constant("k", {c.B, c.Hkv, c.Skv, c.D}, d.k);
        mb.constant("v", {c.B, c.Hkv, c.Skv, c.Dv}, d.v);
    }
    std::vector<std::string> ins = {"q", "k", "v", "", "", "", ""};
    if (!c.maskDims.empty()) {
        if (c.maskBool) {
            std::vector<uint8_t> m(d.mask.begin(), d.mask.end());
            mb.constantRaw("mask", c.maskDims, Schema::DataType::DT_BOOL, m.data(), m.size());
        } else {
            mb.constant("mask", c.maskDims, d.mask);
        }
        ins[3] = "mask";
    }
    if (c.P > 0) {
        mb.constant("pk", {c.B, c.Hkv, c.P, c.D}, d.pk);
        mb.constant("pv", {c.B, c.Hkv, c.P, c.Dv}, d.pv);
        ins[4] = "pk";
        ins[5] = "pv";
    }
    if (!c.nonpad.empty()) {
        mb.constantInt64("nonpad", {c.B}, c.nonpad);
        ins[6] = "nonpad";
    }
    std::vector<std::string> outs = {"y", "present_k", "present_v"};
    if (c.qkMode >= 0) {
        outs.push_back("qk");
    }
    auto op = mb.op(Schema::OpType::Attention, "attn", ins, outs);
    Schema::AttentionParamT p;
    p.isCausal = c.causal;
    p.qNumHeads = c.threeD ? c.Hq : 0;
    p.kvNumHeads = c.threeD ? c.Hkv : 0;
    p.scale = c.scale;
    p.softcap = c.softcap;
    p.qkMatmulOutputMode = c.qkMode < 0 ? 0 : c.qkMode;
    op->param.Set(p);
    for (auto& o : outs) {
        mb.output(o);
    }
    return mb.finish();
}

AttnOut runEngine(const AttnCase& c, const AttnData& d) {
    auto model = attnModel(c, d);
    auto qt = c.threeD ? makeTensor({c.B, c.Sq, c.Hq * c.D}, to3D(d.q, c.B, c.Hq, c.Sq, c.D))
                       : makeTensor({c.B, c.Hq, c.Sq, c.D}, d.q);
    auto r = runModel(model, {{"q", qt.get()}});
    AttnOut o;
    o.code = r.code;
    if (r.code != NO_ERROR) {
        return o;
    }
    auto flat = [](const std::shared_ptr<Tensor>& t) {
        return std::vector<float>(t->host<float>(), t->host<float>() + t->elementSize());
    };
    o.y = flat(r.outputs["y"]);
    if (c.threeD) {  // back to [B, H, S, Dv]
        std::vector<float> y(o.y.size());
        for (int b = 0; b < c.B; ++b)
            for (int h = 0; h < c.Hq; ++h)
                for (int s = 0; s < c.Sq; ++s)
                    for (int x = 0; x < c.Dv; ++x)
                        y[(((size_t)b * c.Hq + h) * c.Sq + s) * c.Dv + x] = o.y[(((size_t)b * c.Sq + s) * c.Hq + h) * c.Dv + x];
        o.y = y;
    }
    o.pk = flat(r.outputs["present_k"]);
    o.pv = flat(r.outputs["present_v"]);
    if (c.qkMode >= 0) {
        o.qk = flat(r.outputs["qk"]);
    }
    return o;
}

// the reference: present = concat(past, current); kv head repeated; bias matrix; softmax; matmul
AttnOut reference(const AttnCase& c, const AttnData& d) {
    const int T = c.T();
    AttnOut o;
    std::vector<double> K((size_t)c.B * c.Hkv * T * c.D), V((size_t)c.B * c.Hkv * T * c.Dv);
    for (int b = 0; b < c.B; ++b)
        for (int h = 0; h < c.Hkv; ++h)
            for (int j = 0; j < T; ++j) {
                for (int x = 0; x < c.D; ++x)
                    K[(((size_t)b * c.Hkv + h) * T + j) * c.D + x] =
                        j < c.P ? d.pk[(((size_t)b * c.Hkv + h) * c.P + j) * c.D + x]
                                : d.k[(((size_t)b * c.Hkv + h) * c.Skv + j - c.P) * c.D + x];
                for (int x = 0; x < c.Dv; ++x)
                    V[(((size_t)b * c.Hkv + h) * T + j) * c.Dv + x] =
                        j < c.P ? d.pv[(((size_t)b * c.Hkv + h) * c.P + j) * c.Dv + x]
                                : d.v[(((size_t)b * c.Hkv + h) * c.Skv + j - c.P) * c.Dv + x];
            }
    o.pk.assign(K.begin(), K.end());
    o.pv.assign(V.begin(), V.end());
    const double scale = c.scale != 0 ? c.scale : 1.0 / sqrt((double)c.D);
    o.y.assign((size_t)c.B * c.Hq * c.Sq * c.Dv, 0.0f);
    o.qk.assign((size_t)c.B * c.Hq * c.Sq * T, 0.0f);
    for (int b = 0; b < c.B; ++b)
        for (int h = 0; h < c.Hq; ++h) {
            int hk = h / (c.Hq / c.Hkv);
            for (int i = 0; i < c.Sq; ++i) {
                std::vector<double> s(T);
                for (int j = 0; j < T; ++j) {
                    double dot = 0;
                    for (int x = 0; x < c.D; ++x)
                        dot += d.q[(((size_t)b * c.Hq + h) * c.Sq + i) * c.D + x] * K[(((size_t)b * c.Hkv + hk) * T + j) * c.D + x];
                    double raw = dot * scale;
                    double capped = c.softcap > 0 ? c.softcap * tanh(raw / c.softcap) : raw;
                    double bias = 0;
                    if (!c.maskDims.empty()) {
                        // right-aligned broadcast of the mask to [B, Hq, Sq, last]
                        std::vector<int> full(4, 1);
                        for (size_t k = 0; k < c.maskDims.size(); ++k) full[4 - c.maskDims.size() + k] = c.maskDims[k];
                        if (j >= full[3]) {
                            bias = -INFINITY;
                        } else {
                            size_t idx = ((((size_t)(full[0] == 1 ? 0 : b) * full[1] + (full[1] == 1 ? 0 : h)) * full[2] +
                                           (full[2] == 1 ? 0 : i)) * full[3]) + j;
                            bias = c.maskBool ? (d.mask[idx] != 0 ? 0.0 : -INFINITY) : d.mask[idx];
                        }
                    }
                    long offset = c.P > 0 ? c.P : (c.nonpad.empty() ? 0 : (long)c.nonpad[b] - c.Sq);
                    if (c.causal && j > i + offset) bias = -INFINITY;
                    if (!c.nonpad.empty() && j >= c.nonpad[b]) bias = -INFINITY;
                    s[j] = capped + bias;
                    double qkv = c.qkMode == 0 ? raw : (c.qkMode == 1 ? capped : s[j]);  // mode 2: with bias
                    o.qk[(((size_t)b * c.Hq + h) * c.Sq + i) * T + j] = (float)qkv;
                }
                double mx = -INFINITY, sum = 0;
                for (auto v : s) mx = std::max(mx, v);
                for (auto& v : s) {
                    v = std::isinf(mx) ? 0.0 : exp(v - mx);
                    sum += v;
                }
                for (int j = 0; j < T; ++j) {
                    s[j] = sum > 0 ? s[j] / sum : 0;
                    if (c.qkMode == 3) o.qk[(((size_t)b * c.Hq + h) * c.Sq + i) * T + j] = (float)s[j];
                }
                for (int x = 0; x < c.Dv; ++x) {
                    double acc = 0;
                    for (int j = 0; j < T; ++j) acc += s[j] * V[(((size_t)b * c.Hkv + hk) * T + j) * c.Dv + x];
                    o.y[(((size_t)b * c.Hq + h) * c.Sq + i) * c.Dv + x] = (float)acc;
                }
            }
        }
    return o;
}

void expectMatches(const AttnCase& c) {
    auto d = makeData(c);
    auto got = runEngine(c, d);
    ASSERT_EQ(got.code, NO_ERROR);
    auto want = reference(c, d);
    EXPECT_TRUE(allClose(got.y, want.y, 1e-5f, 1e-4f)) << "Y";
    EXPECT_TRUE(allClose(got.pk, want.pk)) << "present_key";
    EXPECT_TRUE(allClose(got.pv, want.pv)) << "present_value";
    if (c.qkMode >= 0) {
        ASSERT_EQ(got.qk.size(), want.qk.size());
        for (size_t i = 0; i < got.qk.size(); ++i) {
            if (std::isinf(want.qk[i])) {
                EXPECT_TRUE(std::isinf(got.qk[i]) && got.qk[i] < 0) << "qk " << i;
            } else {
                EXPECT_NEAR(got.qk[i], want.qk[i], 1e-5f) << "qk " << i;
            }
        }
    }
}
} // namespace

// one head, Q = (1, 0), keys (1, 0) and (0, 1), values (1, 2) and (3, 4), scale 1:
// scores (1, 0) -> weights (e, 1) / (e + 1) -> y = ((e + 3) / (e + 1), (2e + 4) / (e + 1))
TEST(Attention, ByHand) {
    ModelBuilder mb;
    mb.input("q", {1, 1, 1, 2});
    mb.constant("k", {1, 1, 2, 2}, {1, 0, 0, 1});
    mb.constant("v", {1, 1, 2, 2}, {1, 2, 3, 4});
    auto op = mb.op(Schema::OpType::Attention, "attn", {"q", "k", "v"}, {"y"});
    Schema::AttentionParamT p;
    p.scale = 1.0f;
    op->param.Set(p);
    mb.output("y");
    auto qt = makeTensor({1, 1, 1, 2}, {1, 0});
    auto r = runModel(mb.finish(), {{"q", qt.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    const float e = expf(1.0f);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {(e + 3) / (e + 1), (2 * e + 4) / (e + 1)}));
}

TEST(Attention, GroupedHeads4D) {
    AttnCase c;
    expectMatches(c);
}

TEST(Attention, ThreeDWithPastAndFloatMask) {
    AttnCase c;
    c.threeD = true;
    c.P = 2;
    c.maskDims = {c.Sq, 5};  // last dim 5 < T = 6: the last key is masked out
    c.scale = 0.5f;
    expectMatches(c);
}

TEST(Attention, CausalWithPastAndBoolMask) {
    AttnCase c;
    c.causal = true;
    c.P = 2;
    c.Sq = 4;
    c.maskDims = {c.B, 1, c.Sq, c.T()};
    c.maskBool = true;
    expectMatches(c);
    AttnCase s;  // causal self-attention without past: offset 0
    s.causal = true;
    s.Sq = s.Skv = 4;
    s.Hq = s.Hkv = 2;
    expectMatches(s);
}

TEST(Attention, SoftcapAndQkOutputModes) {
    for (int mode = 0; mode < 4; ++mode) {
        AttnCase c;
        c.softcap = 0.8f;
        c.qkMode = mode;
        c.maskDims = {1, c.Hq, 1, c.T()};
        expectMatches(c);
    }
}

TEST(Attention, NonpadKvSeqlenAndFullyMaskedRows) {
    AttnCase c;
    c.nonpad = {4, 2};
    c.causal = true;  // offset nonpad[b] - Sq: batch 1 has offset -1, so query 0 sees no key -> zeros
    c.qkMode = 3;
    expectMatches(c);
}

TEST(Attention, InvalidShapesFailAtCreate) {
    auto fails = [](const AttnCase& c) {
        auto d = makeData(c);
        auto m = attnModel(c, d);
        std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(m.data(), m.size()));
        ScheduleConfig config;
        return !net || net->createSession(config) == nullptr;
    };
    AttnCase ok;
    EXPECT_FALSE(fails(ok));
    AttnCase c = ok;
    c.Hkv = 3;  // 4 % 3
    EXPECT_TRUE(fails(c));
    c = ok;
    c.maskDims = {3, c.Sq, c.T()};  // 3 does not broadcast to Hq = 4
    EXPECT_TRUE(fails(c));
    c = ok;
    c.maskDims = {c.Sq, c.T() + 1};  // longer than the keys
    EXPECT_TRUE(fails(c));
    c = ok;
    c.softcap = -1;
    EXPECT_TRUE(fails(c));
    c = ok;
    c.qkMode = 5;
    EXPECT_TRUE(fails(c));
}

// no keys at all: every row is fully masked -> zeros; no queries: empty output
TEST(Attention, ZeroLengthSequences) {
    AttnCase c;
    c.Skv = 0;
    expectMatches(c);
    AttnCase q;
    q.Sq = 0;
    expectMatches(q);
}
