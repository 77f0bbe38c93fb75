// Native packed (NC16HW16) depthwise convolution and pooling: graphs conv -> op -> conv keep the op's
// tensors packed; the results must match the plain layout with the reference kernels
// (MNN_CONV_ALGO=reference) on every ISA tier of this CPU and 1-3 threads. Depthwise also with a
// plain input (graph input) and a plain output (graph output).
#include <float.h>
#include <math.h>
#include <random>
#include <string>
#include "PackedTestUtils.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

constexpr int kInC = 8;  // channels of the graph input / output

struct DwCase {
    int n, c, h, w, k, stride, dilation;
    std::vector<int> pads;  // top, left, bottom, right
    Schema::FusedActivation act;
    bool noBias = false;
};

// where the depthwise op sits: between two convs, first (plain input), last (plain output)
enum class DwPlace { MIDDLE, FIRST, LAST };

void addDepthwise(ModelBuilder& mb, const DwCase& c, const std::string& in, const std::string& out) {
    mb.constant("dw_w", {c.c, 1, c.k, c.k}, randomFloats((size_t)c.c * c.k * c.k, 101 + c.c, -0.5f, 0.5f));
    std::vector<std::string> ins = {in, "dw_w"};
    if (!c.noBias) {
        mb.constant("dw_b", {c.c}, randomFloats((size_t)c.c, 202 + c.k));
        ins.push_back("dw_b");
    }
    auto op = mb.op(Schema::OpType::Convolution, "dw", ins, {out});
    Schema::ConvParamT p;
    p.kernel = {c.k, c.k};
    p.strides = {c.stride, c.stride};
    p.dilations = {c.dilation, c.dilation};
    p.pads = {c.pads[0], c.pads[1], c.pads[2], c.pads[3]};
    p.group = c.c;
    p.activation = c.act;
    p.clipMin = -0.25f;
    p.clipMax = 0.5f;
    op->param.Set(p);
}

std::vector<uint8_t> dwModel(const DwCase& c, DwPlace place) {
    ModelBuilder mb;
    if (place == DwPlace::FIRST) {
        mb.input("x", {c.n, c.c, c.h, c.w});
        addDepthwise(mb, c, "x", "t2");
        addConv(mb, "c2", "t2", "y", c.c, kInC, 1, 1, 1, 0, 1, 31);
    } else if (place == DwPlace::LAST) {
        mb.input("x", {c.n, kInC, c.h, c.w});
        addConv(mb, "c1", "x", "t1", kInC, c.c, 1, 1, 1, 0, 1, 21);
        addDepthwise(mb, c, "t1", "y");
    } else {
        mb.input("x", {c.n, kInC, c.h, c.w});
        addConv(mb, "c1", "x", "t1", kInC, c.c, 1, 1, 1, 0, 1, 21);
        addDepthwise(mb, c, "t1", "t2");
        addConv(mb, "c2", "t2", "y", c.c, kInC, 1, 1, 1, 0, 1, 31);
    }
    mb.output("y");
    return mb.finish();
}

struct PoolCase {
    int n, c, h, w;
    Schema::PoolType type;
    bool global;
    int k, stride, dilation;
    std::vector<int> pads;
    bool ceil, includePad;
    int nanEvery;  // > 0: every nanEvery-th input element is NaN
};

std::vector<uint8_t> poolModel(const PoolCase& c) {
    ModelBuilder mb;
    mb.input("x", {c.n, kInC, c.h, c.w});
    addConv(mb, "c1", "x", "t1", kInC, c.c, 1, 1, 1, 0, 1, 21);
    auto op = mb.op(Schema::OpType::Pooling, "pool", {"t1"}, {"t2"});
    Schema::PoolParamT p;
    p.type = c.type;
    p.global = c.global;
    if (!c.global) {
        p.kernel = {c.k, c.k};
        p.strides = {c.stride, c.stride};
        p.dilations = {c.dilation, c.dilation};
        p.pads = c.pads;
    }
    p.ceilMode = c.ceil;
    p.countIncludePad = c.includePad;
    op->param.Set(p);
    addConv(mb, "c2", "t2", "y", c.c, kInC, 1, 1, 1, 0, 1, 31);
    mb.output("y");
    return mb.finish();
}

std::string tierName(int tier) {
    return cpuTierName(cpuCoreFunctionsFor((CPUTier)tier).tier);
}

}  // namespace

TEST(PackedDepthwisePool, DepthwiseMatchesReferenceOnEveryTierAndThreadCount) {
    using FA = Schema::FusedActivation;
    const std::vector<DwCase> cases = {
        {1, 3, 7, 7, 3, 1, 1, {1, 1, 1, 1}, FA::RELU},        {2, 16, 7, 7, 3, 2, 1, {0, 1, 1, 0}, FA::NONE},
        {1, 24, 9, 11, 5, 1, 1, {2, 2, 2, 2}, FA::CLIP},      {2, 40, 10, 13, 5, 2, 1, {2, 1, 1, 2}, FA::SILU},
        {1, 96, 8, 8, 3, 1, 2, {2, 2, 2, 2}, FA::HARD_SWISH}, {1, 24, 1, 1, 3, 1, 1, {1, 1, 1, 1}, FA::RELU},
        {2, 40, 2, 3, 3, 2, 1, {1, 1, 1, 1}, FA::NONE},       {1, 16, 7, 7, 5, 1, 1, {0, 0, 0, 0}, FA::CLIP, true},
        {1, 3, 2, 3, 3, 1, 2, {2, 2, 2, 2}, FA::SILU},        {2, 16, 6, 37, 3, 1, 1, {1, 0, 2, 1}, FA::HARD_SWISH},
        {1, 24, 7, 7, 3, 2, 2, {0, 2, 1, 2}, FA::RELU},       {1, 24, 5, 40, 5, 1, 1, {2, 2, 2, 2}, FA::SILU},
        {2, 17, 4, 29, 3, 1, 1, {1, 1, 1, 1}, FA::RELU},      {1, 24, 6, 45, 3, 2, 1, {1, 1, 1, 1}, FA::RELU},
        {1, 16, 5, 50, 5, 2, 1, {2, 2, 2, 2}, FA::NONE},
    };
    const int best = (int)cpuFeatures().best;
    for (size_t ci = 0; ci < cases.size(); ++ci) {
        const auto& c = cases[ci];
        for (DwPlace place : {DwPlace::MIDDLE, DwPlace::FIRST, DwPlace::LAST}) {
            auto model = dwModel(c, place);
            const int inC = place == DwPlace::FIRST ? c.c : kInC;
            auto x = makeTensor({c.n, inC, c.h, c.w}, randomFloats((size_t)c.n * inC * c.h * c.w, 7 + (unsigned)ci));
            auto ref = runWithLayout(model, {{"x", x.get()}}, "plain", 1, "reference");
            ASSERT_EQ(ref.code, NO_ERROR) << "case " << ci;
            for (int tier = 0; tier <= best; ++tier) {
                cpuSetTierOverride(tier);
                for (int threads = 1; threads <= 3; ++threads) {
                    auto packed = runWithLayout(model, {{"x", x.get()}}, "packed", threads);
                    ASSERT_EQ(packed.code, NO_ERROR) << "case " << ci;
                    if (place != DwPlace::FIRST) {
                        EXPECT_EQ(packed.layouts["t1"], "NC16HW16") << "case " << ci;
                    }
                    if (place != DwPlace::LAST) {
                        EXPECT_EQ(packed.layouts["t2"], "NC16HW16") << "case " << ci;
                    }
                    EXPECT_EQ(packed.algorithms["dw"], "packed-depthwise dwpack__" + tierName(tier)) << "case " << ci;
                    EXPECT_EQ(packed.shapes["y"], ref.shapes["y"]) << "case " << ci;
                    EXPECT_LT(maxRelativeDiff(packed, ref), 2e-5)
                        << "case " << ci << " place " << (int)place << " tier " << tier << " threads " << threads;
                }
            }
            cpuSetTierOverride(-1);
        }
    }
}

TEST(PackedDepthwisePool, PoolingMatchesReferenceOnEveryTierAndThreadCount) {
    using PT = Schema::PoolType;
    const std::vector<PoolCase> cases = {
        {1, 16, 8, 8, PT::MAXPOOL, false, 2, 2, 1, {0, 0, 0, 0}, false, false, 0},
        {2, 24, 7, 7, PT::MAXPOOL, false, 3, 2, 1, {1, 1, 1, 1}, true, false, 0},
        {1, 40, 9, 10, PT::AVERAGEPOOL, false, 3, 2, 1, {1, 1, 1, 1}, true, true, 0},
        {2, 40, 9, 10, PT::AVERAGEPOOL, false, 3, 2, 1, {1, 1, 1, 1}, true, false, 0},
        {1, 3, 1, 1, PT::AVERAGEPOOL, false, 3, 1, 1, {1, 1, 1, 1}, false, false, 0},
        {1, 96, 7, 7, PT::MAXPOOL, true, 0, 1, 1, {}, false, false, 0},
        {2, 96, 7, 7, PT::AVERAGEPOOL, true, 0, 1, 1, {}, false, false, 0},
        {1, 3, 2, 3, PT::AVERAGEPOOL, true, 0, 1, 1, {}, false, false, 0},
        {1, 16, 5, 6, PT::MAXPOOL, false, 3, 1, 2, {2, 2, 2, 2}, false, false, 0},
        {1, 24, 6, 37, PT::AVERAGEPOOL, false, 5, 1, 1, {2, 1, 1, 2}, false, true, 0},
        {2, 16, 6, 37, PT::MAXPOOL, false, 3, 1, 1, {1, 1, 1, 1}, false, false, 0},
        {1, 16, 7, 7, PT::MAXPOOL, false, 3, 2, 1, {1, 1, 1, 1}, false, false, 11},
        {1, 40, 9, 9, PT::AVERAGEPOOL, false, 2, 2, 1, {0, 0, 0, 0}, true, false, 0},
        // 3-wide windows at stride 1 (inception's average pools) and 2 run separably (pkPoolInterior3)
        {1, 40, 9, 30, PT::AVERAGEPOOL, false, 3, 1, 1, {1, 1, 1, 1}, false, false, 0},
        {1, 16, 8, 21, PT::MAXPOOL, false, 3, 1, 1, {1, 1, 1, 1}, false, false, 7},
        {1, 16, 10, 41, PT::MAXPOOL, false, 3, 2, 1, {0, 0, 0, 0}, true, false, 5},
        // small pools of many planes run in tasks of several (plane, band) items at 2-3 threads
        // (kMinTaskWork): a 7x7 global average over 1000 channels at batch 2 (126 items in 6 tasks,
        // a half-block last), a 3x3 stride-2 max pool over 200 channels (13 items in 5 tasks)
        {2, 1000, 7, 7, PT::AVERAGEPOOL, true, 0, 1, 1, {}, false, false, 0},
        {1, 200, 14, 14, PT::MAXPOOL, false, 3, 2, 1, {1, 1, 1, 1}, false, false, 0},
        // global averages of odd planes, NaN inside
        {1, 40, 21, 19, PT::AVERAGEPOOL, true, 0, 1, 1, {}, false, false, 0},
        {2, 24, 9, 13, PT::AVERAGEPOOL, true, 0, 1, 1, {}, false, false, 29},
    };
    const int best = (int)cpuFeatures().best;
    for (size_t ci = 0; ci < cases.size(); ++ci) {
        const auto& c = cases[ci];
        auto model = poolModel(c);
        auto values = randomFloats((size_t)c.n * kInC * c.h * c.w, 17 + (unsigned)ci);
        for (size_t i = 0; c.nanEvery > 0 && i < values.size(); i += (size_t)c.nanEvery) {
            values[i] = NAN;
        }
        auto x = makeTensor({c.n, kInC, c.h, c.w}, values);
        auto ref = runWithLayout(model, {{"x", x.get()}}, "plain", 1, "reference");
        ASSERT_EQ(ref.code, NO_ERROR) << "case " << ci;
        auto plain = runWithLayout(model, {{"x", x.get()}}, "plain", 2);
        ASSERT_EQ(plain.code, NO_ERROR) << "case " << ci;
        EXPECT_LT(nanAwareDiff(plain, ref), 2e-5) << "case " << ci;
        const std::string kind = c.type == PT::MAXPOOL ? " max" : " avg";
        for (int tier = 0; tier <= best; ++tier) {
            cpuSetTierOverride(tier);
            for (int threads = 1; threads <= 3; ++threads) {
                auto packed = runWithLayout(model, {{"x", x.get()}}, "packed", threads);
                ASSERT_EQ(packed.code, NO_ERROR) << "case " << ci;
                EXPECT_EQ(packed.layouts["t1"], "NC16HW16") << "case " << ci;
                EXPECT_EQ(packed.layouts["t2"], "NC16HW16") << "case " << ci;
                EXPECT_EQ(packed.algorithms["pool"], "packed-pool poolpack__" + tierName(tier) + kind) << "case " << ci;
                EXPECT_EQ(packed.shapes["y"], ref.shapes["y"]) << "case " << ci;
                EXPECT_LT(nanAwareDiff(packed, ref), 2e-5)
                    << "case " << ci << " tier " << tier << " threads " << threads;
                EXPECT_LT(nanAwareDiff(packed, plain), 2e-5) << "case " << ci << " tier " << tier;
            }
        }
        cpuSetTierOverride(-1);
    }
}

TEST(PackedDepthwisePool, MaxPoolWithIndicesAndLpPoolStayPlain) {
    // outside what the packed kernel does: the Session must not pack their tensors
    for (int variant = 0; variant < 2; ++variant) {
        ModelBuilder mb;
        mb.input("x", {1, kInC, 6, 6});
        addConv(mb, "c1", "x", "t1", kInC, 16, 1, 1, 1, 0, 1, 21);
        std::vector<std::string> outs = {"t2"};
        if (variant == 0) {
            outs.push_back("idx");
        }
        auto op = mb.op(Schema::OpType::Pooling, "pool", {"t1"}, outs);
        Schema::PoolParamT p;
        p.type = variant == 0 ? Schema::PoolType::MAXPOOL : Schema::PoolType::LPPOOL;
        p.kernel = {2, 2};
        p.strides = {2, 2};
        op->param.Set(p);
        addConv(mb, "c2", "t2", "y", 16, kInC, 1, 1, 1, 0, 1, 31);
        mb.output("y");
        if (variant == 0) {
            mb.output("idx");
        }
        auto model = mb.finish();
        auto x = makeTensor({1, kInC, 6, 6}, randomFloats(kInC * 36, 3));
        auto packed = runWithLayout(model, {{"x", x.get()}}, "packed");
        ASSERT_EQ(packed.code, NO_ERROR);
        EXPECT_EQ(packed.layouts["t1"], "NCHW") << "variant " << variant;
        EXPECT_EQ(packed.layouts["t2"], "NCHW") << "variant " << variant;
        auto ref = runWithLayout(model, {{"x", x.get()}}, "plain", 1, "reference");
        ASSERT_EQ(ref.code, NO_ERROR);
        EXPECT_LT(maxRelativeDiff(packed, ref), 2e-5) << "variant " << variant;
    }
}

// The row kernels themselves against their documented formula (CPUCoreFunctions.hpp) over random
// geometries, including windows with no tap inside (max: the lowest float, average: 0) and NaN.
TEST(PackedDepthwisePool, RowKernelsMatchTheirFormulaOnEveryTier) {
    const int best = (int)cpuFeatures().best;
    std::mt19937 rng(1234);
    auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
    for (int trial = 0; trial < 300; ++trial) {
        // every third trial wide: interiors past the stride-1 / 2 kernels' 16 (AVX-512) positions per step
        const bool wide = trial % 3 == 0;
        const int iw = uni(1, wide ? 48 : 20), kw = uni(1, 5), sw = uni(1, wide ? 2 : 3), dw = uni(1, wide ? 1 : 3);
        const int pl = uni(0, 4), rows = uni(0, 3), ow = uni(1, wide ? 44 : 12);
        const int64_t xRowStep = (int64_t)(iw + uni(0, 2)) * 16;
        auto x = randomFloats((size_t)(std::max(rows, 1) * xRowStep), 100 + trial);
        if (trial % 7 == 0) {
            x[(size_t)uni(0, (int)x.size() - 1)] = NAN;
        }
        const auto w = randomFloats((size_t)std::max(rows, 1) * kw * 16, 200 + trial);
        const auto bias = randomFloats(16, 300 + trial);
        std::vector<float> invX(ow);
        for (auto& v : invX) {
            v = 1.0f / (float)uni(1, 9);
        }
        const float scaleY = 1.0f / (float)uni(1, 4);
        // interior: the whole window inside [0, iw)
        int in0 = 0;
        while (in0 < ow && in0 * sw - pl < 0) {
            ++in0;
        }
        int in1 = in0;
        while (in1 < ow && in1 * sw - pl + (kw - 1) * dw < iw) {
            ++in1;
        }
        const int act = trial % 4 == 3 ? 0 : trial % 4;  // none, relu, clip
        GemmPost post;
        post.act = act;
        post.lo = -0.3f;
        post.hi = 0.4f;
        // oracle
        std::vector<float> eDw((size_t)ow * 16), eMax((size_t)ow * 16), eAvg((size_t)ow * 16);
        for (int ox = 0; ox < ow; ++ox) {
            for (int l = 0; l < 16; ++l) {
                double s = bias[l], sum = 0.0;
                float m = -INFINITY;
                bool any = false;
                for (int r = 0; r < rows; ++r) {
                    for (int kx = 0; kx < kw; ++kx) {
                        const int ix = ox * sw - pl + kx * dw;
                        if (ix < 0 || ix >= iw) {
                            continue;
                        }
                        const float v = x[(size_t)(r * xRowStep + ix * 16 + l)];
                        s += (double)v * w[(size_t)((r * kw + kx) * 16 + l)];
                        sum += v;
                        m = (v > m || std::isnan(v) || std::isnan(m)) ? (std::isnan(m) ? m : v) : m;
                        any = true;
                    }
                }
                float d = (float)s;
                // the table's relu maps NaN to 0 (a > 0 ? a : 0), like the plain kernels
                d = act == 1 ? (d > 0.0f ? d : 0.0f) : act == 2 ? std::min(std::max(d, post.lo), post.hi) : d;
                eDw[(size_t)ox * 16 + l] = d;
                eMax[(size_t)ox * 16 + l] = any ? m : -FLT_MAX;
                eAvg[(size_t)ox * 16 + l] = (float)(sum * (double)(scaleY * invX[ox]));
            }
        }
        for (int tier = 0; tier <= best; ++tier) {
            const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
            ASSERT_NE(f.packedDw, nullptr);
            ASSERT_NE(f.packedPool, nullptr);
            std::vector<float> y((size_t)ow * 16 + 16, 777.0f);
            PackedDwRow r;
            r.x = x.data();
            r.xRowStep = xRowStep;
            r.rows = rows;
            r.w = w.data();
            r.bias = bias.data();
            r.y = y.data();
            r.iw = iw;
            r.ow = ow;
            r.kw = kw;
            r.sw = sw;
            r.dw = dw;
            r.pl = pl;
            r.in0 = in0;
            r.in1 = in1;
            r.post = act ? &post : nullptr;
            f.packedDw(&r);
            auto check = [&](const std::vector<float>& e, const char* what) {
                for (size_t i = 0; i < e.size(); ++i) {
                    if (std::isnan(e[i]) || std::isnan(y[i])) {
                        ASSERT_TRUE(std::isnan(e[i]) && std::isnan(y[i]))
                            << what << " trial " << trial << " [" << i << "]";
                        continue;
                    }
                    ASSERT_NEAR(y[i], e[i], 1e-5f * (1.0f + std::fabs(e[i])))
                        << what << " tier " << tier << " trial " << trial << " [" << i << "]";
                }
                ASSERT_EQ(y[e.size()], 777.0f) << what << ": wrote past the row";
            };
            check(eDw, "dwpack");
            PackedPoolRow p;
            p.x = x.data();
            p.xRowStep = xRowStep;
            p.rows = rows;
            p.y = y.data();
            p.iw = iw;
            p.ow = ow;
            p.kw = kw;
            p.sw = sw;
            p.dw = dw;
            p.pl = pl;
            p.in0 = in0;
            p.in1 = in1;
            p.isMax = 1;
            p.scaleY = scaleY;
            p.invX = invX.data();
            f.packedPool(&p);
            check(eMax, "poolpack max");
            p.isMax = 0;
            f.packedPool(&p);
            check(eAvg, "poolpack avg");
        }
    }
}
