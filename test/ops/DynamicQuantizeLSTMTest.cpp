// DynamicQuantizeLSTM against (1) the documented algorithm written out here step by step (X
// quantized once, each step's H quantized, int32 products scaled by the activations' and weights'
// scales, then the LSTM gates) and (2) the float LSTM op with the dequantized weights, which bounds
// the quantization error and pins the weight layout and gate order independently. Bad inputs fail
// at createSession.
#include <math.h>
#include <random>
#include "OpTestHelpers.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
struct LstmCase {
    int seq = 5, batch = 2, in = 6, hidden = 4, dirs = 1;
    Schema::RnnDirection direction = Schema::RnnDirection::FORWARD;
    bool perColumn = false, uint8Weights = false, bias = true, initial = true;
    std::vector<int> lens;  // empty: no sequence_lens
    std::vector<float> x, b, h0, c0;
    std::vector<int> w, r, wz, rz;  // quantized values (int8 or uint8 range)
    std::vector<float> ws, rs;
};

LstmCase makeCase(LstmCase c, uint32_t seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> nd(0.0f, 1.0f);
    std::uniform_int_distribution<int> q8(c.uint8Weights ? 0 : -127, c.uint8Weights ? 255 : 127);
    std::uniform_int_distribution<int> zd(100, 150);
    const int G = 4 * c.hidden;
    auto fill = [&](std::vector<float>& v, size_t n, float s) {
        v.resize(n);
        for (auto& e : v) {
            e = nd(rng) * s;
        }
    };
    fill(c.x, (size_t)c.seq * c.batch * c.in, 1.5f);
    fill(c.b, (size_t)c.dirs * 2 * G, 0.3f);
    fill(c.h0, (size_t)c.dirs * c.batch * c.hidden, 0.5f);
    fill(c.c0, (size_t)c.dirs * c.batch * c.hidden, 0.5f);
    c.w.resize((size_t)c.dirs * c.in * G);
    c.r.resize((size_t)c.dirs * c.hidden * G);
    for (auto& e : c.w) {
        e = q8(rng);
    }
    for (auto& e : c.r) {
        e = q8(rng);
    }
    const size_t pc = c.perColumn ? (size_t)c.dirs * G : (size_t)c.dirs;
    std::uniform_real_distribution<float> sd(0.002f, 0.006f);
    c.ws.resize(pc);
    c.rs.resize(pc);
    c.wz.resize(pc);
    c.rz.resize(pc);
    for (size_t i = 0; i < pc; ++i) {
        c.ws[i] = sd(rng);
        c.rs[i] = sd(rng);
        c.wz[i] = c.uint8Weights ? zd(rng) : 0;
        c.rz[i] = c.uint8Weights ? zd(rng) : 0;
    }
    return c;
}

struct Quant {
    float scale;
    int zp;
};
Quant quantParams(const std::vector<float>& v) {
    float lo = 0.0f, hi = 0.0f;
    for (float e : v) {
        lo = std::min(lo, e);
        hi = std::max(hi, e);
    }
    Quant q;
    q.scale = hi == lo ? 1.0f : (hi - lo) / 255.0f;
    q.zp = (int)std::nearbyint(std::min(255.0f, std::max(0.0f, 0.0f - lo / q.scale)));
    return q;
}
int quantize(float v, const Quant& q) {
    return (int)std::min(255.0f, std::max(0.0f, std::nearbyint(v / q.scale) + (float)q.zp));
}
float sigmoid(float v) {
    return 1.0f / (1.0f + expf(-v));
}

/** the documented algorithm; returns Y [seq, dirs, batch, H], Y_h, Y_c */
std::vector<std::vector<float>> reference(const LstmCase& c) {
    const int H = c.hidden, G = 4 * H;
    std::vector<float> y((size_t)c.seq * c.dirs * c.batch * H, 0.0f), yh((size_t)c.dirs * c.batch * H),
        yc((size_t)c.dirs * c.batch * H);
    const Quant xq = quantParams(c.x);
    auto param = [&](const std::vector<float>& s, const std::vector<int>& z, int d, int g, float* scale, int* zero) {
        const size_t i = c.perColumn ? (size_t)d * G + g : (size_t)d;
        *scale = s[i];
        *zero = z[i];
    };
    for (int d = 0; d < c.dirs; ++d) {
        const bool reverse = c.direction == Schema::RnnDirection::REVERSE || d == 1;
        std::vector<float> h((size_t)c.batch * H), cs((size_t)c.batch * H);
        for (size_t i = 0; i < h.size(); ++i) {
            h[i] = c.initial ? c.h0[(size_t)d * c.batch * H + i] : 0.0f;
            cs[i] = c.initial ? c.c0[(size_t)d * c.batch * H + i] : 0.0f;
        }
        for (int step = 0; step < c.seq; ++step) {
            const Quant hq = quantParams(h);
            std::vector<float> hNew = h, cNew = cs;
            for (int bi = 0; bi < c.batch; ++bi) {
                const int len = c.lens.empty() ? c.seq : c.lens[bi];
                if (step >= len) {
                    continue;
                }
                const int t = reverse ? len - 1 - step : step;
                std::vector<float> gates(G);
                for (int g = 0; g < G; ++g) {
                    float s1, s2;
                    int z1, z2;
                    param(c.ws, c.wz, d, g, &s1, &z1);
                    param(c.rs, c.rz, d, g, &s2, &z2);
                    int64_t ax = 0, ah = 0;
                    for (int k = 0; k < c.in; ++k) {
                        const int xv = quantize(c.x[((size_t)t * c.batch + bi) * c.in + k], xq) - xq.zp;
                        ax += (int64_t)xv * (c.w[((size_t)d * c.in + k) * G + g] - z1);
                    }
                    for (int k = 0; k < H; ++k) {
                        const int hv = quantize(h[(size_t)bi * H + k], hq) - hq.zp;
                        ah += (int64_t)hv * (c.r[((size_t)d * H + k) * G + g] - z2);
                    }
                    float v = (float)ax * (xq.scale * s1);
                    v = v + (float)ah * (hq.scale * s2);
                    gates[g] = v + (c.bias ? c.b[(size_t)d * 2 * G + g] + c.b[(size_t)d * 2 * G + G + g] : 0.0f);
                }
                for (int j = 0; j < H; ++j) {
                    const float i = sigmoid(gates[j]), o = sigmoid(gates[H + j]), f = sigmoid(gates[2 * H + j]);
                    const float cc = tanhf(gates[3 * H + j]);
                    const float cv = cs[(size_t)bi * H + j] * f + i * cc;
                    cNew[(size_t)bi * H + j] = cv;
                    hNew[(size_t)bi * H + j] = o * tanhf(cv);
                    y[(((size_t)t * c.dirs + d) * c.batch + bi) * H + j] = hNew[(size_t)bi * H + j];
                }
            }
            h = hNew;
            cs = cNew;
        }
        std::copy(h.begin(), h.end(), yh.begin() + (size_t)d * c.batch * H);
        std::copy(cs.begin(), cs.end(), yc.begin() + (size_t)d * c.batch * H);
    }
    return {y, yh, yc};
}

template <typename T>
std::vector<T> cast(const std::vector<int>& v) {
    return std::vector<T>(v.begin(), v.end());
}

std::vector<uint8_t> buildModel(const LstmCase& c, bool badR = false) {
    const int G = 4 * c.hidden;
    ModelBuilder mb;
    mb.input("x", {c.seq, c.batch, c.in});
    const std::vector<int> wDims = {c.dirs, c.in, G}, rDims = {c.dirs, badR ? c.hidden + 1 : c.hidden, G};
    std::vector<int> r = c.r;
    if (badR) {
        r.resize((size_t)c.dirs * (c.hidden + 1) * G, 0);
    }
    const std::vector<int> pDims = c.perColumn ? std::vector<int>{c.dirs, G} : std::vector<int>{c.dirs};
    if (c.uint8Weights) {
        constantOf<uint8_t>(mb, "w", wDims, cast<uint8_t>(c.w));
        constantOf<uint8_t>(mb, "r", rDims, cast<uint8_t>(r));
        constantOf<uint8_t>(mb, "wz", pDims, cast<uint8_t>(c.wz));
        constantOf<uint8_t>(mb, "rz", pDims, cast<uint8_t>(c.rz));
    } else {
        constantOf<int8_t>(mb, "w", wDims, cast<int8_t>(c.w));
        constantOf<int8_t>(mb, "r", rDims, cast<int8_t>(r));
        constantOf<int8_t>(mb, "wz", pDims, cast<int8_t>(c.wz));
        constantOf<int8_t>(mb, "rz", pDims, cast<int8_t>(c.rz));
    }
    mb.constant("ws", pDims, c.ws);
    mb.constant("rs", pDims, c.rs);
    std::vector<std::string> ins = {"x", "w", "r", "", "", "", "", "", "ws", "wz", "rs", "rz"};
    if (c.bias) {
        mb.constant("b", {c.dirs, 2 * G}, c.b);
        ins[3] = "b";
    }
    if (!c.lens.empty()) {
        mb.constantInt32("lens", {c.batch}, std::vector<int32_t>(c.lens.begin(), c.lens.end()));
        ins[4] = "lens";
    }
    if (c.initial) {
        mb.constant("h0", {c.dirs, c.batch, c.hidden}, c.h0);
        mb.constant("c0", {c.dirs, c.batch, c.hidden}, c.c0);
        ins[5] = "h0";
        ins[6] = "c0";
    }
    auto op = mb.op(Schema::OpType::DynamicQuantizeLSTM, "dql", ins, {"y", "yh", "yc"});
    Schema::RnnParamT p;
    p.hiddenSize = c.hidden;
    p.direction = c.direction;
    op->param.Set(p);
    mb.output("y");
    mb.output("yh");
    mb.output("yc");
    return mb.finish();
}

std::map<std::string, std::shared_ptr<Tensor>> run(const LstmCase& c) {
    auto in = makeTensor({c.seq, c.batch, c.in}, c.x);
    auto r = runModel(buildModel(c), {{"x", in.get()}});
    EXPECT_EQ(r.code, NO_ERROR);
    return r.outputs;
}

void checkAgainstReference(const LstmCase& c) {
    auto out = run(c);
    ASSERT_EQ(out.size(), 3u);
    auto want = reference(c);
    const char* names[3] = {"y", "yh", "yc"};
    for (int i = 0; i < 3; ++i) {
        auto got = valuesOf<float>(out[names[i]].get());
        ASSERT_EQ(got.size(), want[i].size()) << names[i];
        for (size_t k = 0; k < got.size(); ++k) {
            ASSERT_NEAR(got[k], want[i][k], 1e-5f) << names[i] << " element " << k;
        }
    }
    EXPECT_EQ(shapeOf(out["y"].get()), (std::vector<int>{c.seq, c.dirs, c.batch, c.hidden}));
}
}  // namespace

TEST(DynamicQuantizeLSTM, ForwardInt8PerTensor) {
    checkAgainstReference(makeCase(LstmCase(), 1));
}

TEST(DynamicQuantizeLSTM, BidirectionalUint8PerColumn) {
    LstmCase c;
    c.dirs = 2;
    c.direction = Schema::RnnDirection::BIDIRECTIONAL;
    c.perColumn = true;
    c.uint8Weights = true;
    checkAgainstReference(makeCase(c, 2));
}

TEST(DynamicQuantizeLSTM, ReverseWithSequenceLengthsNoBiasNoState) {
    LstmCase c;
    c.direction = Schema::RnnDirection::REVERSE;
    c.batch = 3;
    c.lens = {5, 2, 0};
    c.bias = false;
    c.initial = false;
    checkAgainstReference(makeCase(c, 3));
}

TEST(DynamicQuantizeLSTM, CloseToFloatLstmWithDequantizedWeights) {
    // the float LSTM op (W [dirs, 4H, in], R [dirs, 4H, H]) with w = (q - zp) * scale
    LstmCase c;
    c.dirs = 2;
    c.direction = Schema::RnnDirection::BIDIRECTIONAL;
    c.perColumn = true;
    c.uint8Weights = true;
    c.seq = 7;
    c.hidden = 8;
    c = makeCase(c, 4);
    const int H = c.hidden, G = 4 * H;
    std::vector<float> wf((size_t)c.dirs * G * c.in), rf((size_t)c.dirs * G * H);
    for (int d = 0; d < c.dirs; ++d) {
        for (int g = 0; g < G; ++g) {
            const size_t pi = (size_t)d * G + g;
            for (int k = 0; k < c.in; ++k) {
                wf[((size_t)d * G + g) * c.in + k] = (float)(c.w[((size_t)d * c.in + k) * G + g] - c.wz[pi]) * c.ws[pi];
            }
            for (int k = 0; k < H; ++k) {
                rf[((size_t)d * G + g) * H + k] = (float)(c.r[((size_t)d * H + k) * G + g] - c.rz[pi]) * c.rs[pi];
            }
        }
    }
    ModelBuilder mb;
    mb.input("x", {c.seq, c.batch, c.in});
    mb.constant("w", {c.dirs, G, c.in}, wf);
    mb.constant("r", {c.dirs, G, H}, rf);
    mb.constant("b", {c.dirs, 2 * G}, c.b);
    mb.constant("h0", {c.dirs, c.batch, H}, c.h0);
    mb.constant("c0", {c.dirs, c.batch, H}, c.c0);
    auto op = mb.op(Schema::OpType::LSTM, "lstm", {"x", "w", "r", "b", "", "h0", "c0"}, {"y", "yh", "yc"});
    Schema::RnnParamT p;
    p.hiddenSize = H;
    p.direction = c.direction;
    op->param.Set(p);
    mb.output("y");
    auto in = makeTensor({c.seq, c.batch, c.in}, c.x);
    auto fr = runModel(mb.finish(), {{"x", in.get()}});
    ASSERT_EQ(fr.code, NO_ERROR);
    auto want = valuesOf<float>(fr.outputs["y"].get());
    auto got = valuesOf<float>(run(c)["y"].get());
    ASSERT_EQ(got.size(), want.size());
    double maxErr = 0.0, maxRef = 0.0;
    for (size_t k = 0; k < got.size(); ++k) {
        maxErr = std::max(maxErr, (double)fabsf(got[k] - want[k]));
        maxRef = std::max(maxRef, (double)fabsf(want[k]));
    }
    // 8-bit activations: about 1% of the output range; a wrong layout or gate order is O(1)
    EXPECT_LT(maxErr, 0.03 * maxRef) << "max error " << maxErr << " of " << maxRef;
    EXPECT_GT(maxErr, 0.0);
}

TEST(DynamicQuantizeLSTM, BadShapesFailAtCreate) {
    auto c = makeCase(LstmCase(), 5);
    EXPECT_TRUE(createFails(buildModel(c, true), "dql", "R is"));
    ModelBuilder mb;
    mb.input("x", {2, 1, 3});
    constantOf<int8_t>(mb, "w", {1, 3, 8}, std::vector<int8_t>(24, 1));
    constantOf<int8_t>(mb, "r", {1, 2, 8}, std::vector<int8_t>(16, 1));
    mb.constant("ws", {1}, {0.1f});
    constantOf<uint8_t>(mb, "wz", {1}, {0});
    mb.constant("rs", {1}, {0.1f});
    constantOf<int8_t>(mb, "rz", {1}, {0});
    auto op = mb.op(Schema::OpType::DynamicQuantizeLSTM, "dql",
                    {"x", "w", "r", "", "", "", "", "", "ws", "wz", "rs", "rz"}, {"y"});
    Schema::RnnParamT p;
    p.hiddenSize = 2;
    op->param.Set(p);
    mb.output("y");
    EXPECT_TRUE(createFails(mb.finish(), "dql", "W_zero_point"));
}
