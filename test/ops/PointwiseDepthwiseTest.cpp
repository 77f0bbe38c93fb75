// PointwiseDepthwise (a 1x1 convolution then a depthwise one, fused by the converter): the plain
// pair of reference convolutions against the unfused graph, and the banded packed kernel
// (CPUPointwiseDepthwisePacked.cpp) against the reference on every ISA tier, 1-3 threads, normal
// and smallest bands (Memory_Low), packed and plain neighbours; the mean output M (a global average
// pool fused in) against the pool; malformed pairs are refused by shape inference.
#include "PackedTestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

using Act = Schema::FusedActivation;

struct PwDwCase {
    int n, c, e, h, w, k, s;
    std::vector<int> pads;  // top, left, bottom, right
    int dil;
    Act act1, act2;
};

Schema::ConvParamT convParam(int k, int s, const std::vector<int>& pads, int dil, int group, Act act) {
    Schema::ConvParamT p;
    p.kernel = {k, k};
    p.strides = {s, s};
    p.dilations = {dil, dil};
    p.pads = pads;
    p.group = group;
    p.activation = act;
    p.clipMin = 0.0f;
    p.clipMax = 6.0f;
    return p;
}

// the weights of the pair, shared by the fused and the unfused graph
void addPairConstants(ModelBuilder& mb, const PwDwCase& t, bool biases) {
    mb.constant("w1", {t.e, t.c, 1, 1}, randomFloats((size_t)t.e * t.c, 21, -0.5f, 0.5f));
    mb.constant("w2", {t.e, 1, t.k, t.k}, randomFloats((size_t)t.e * t.k * t.k, 22, -0.5f, 0.5f));
    if (biases) {
        mb.constant("b1", {t.e}, randomFloats((size_t)t.e, 23));
        mb.constant("b2", {t.e}, randomFloats((size_t)t.e, 24));
    }
}

Schema::OpT* addFused(ModelBuilder& mb, const PwDwCase& t, const std::string& in, const std::string& out, bool biases) {
    auto op = mb.op(Schema::OpType::PointwiseDepthwise, "pwdw",
                    {in, "w1", biases ? "b1" : "", "w2", biases ? "b2" : ""}, {out});
    Schema::PointwiseDepthwiseParamT p;
    p.pointwise.reset(new Schema::ConvParamT(convParam(1, 1, {0, 0, 0, 0}, 1, 1, t.act1)));
    p.depthwise.reset(new Schema::ConvParamT(convParam(t.k, t.s, t.pads, t.dil, t.e, t.act2)));
    op->param.Set(p);
    return op;
}

constexpr int kBefore = 1, kAfter = 2;

/**
 * x -> [1x1 conv c0] -> t -> pair -> u -> [1x1 conv c2] -> y (neighbours: kBefore | kAfter); with a
 * neighbour the pair's tensor on that side is packed, without it plain (graph input / output)
 */
std::vector<uint8_t> pairModel(const PwDwCase& t, bool fused, int neighbours, bool biases = true) {
    ModelBuilder mb;
    mb.input("x", {t.n, t.c, t.h, t.w});
    addPairConstants(mb, t, biases);
    const std::string in = (neighbours & kBefore) ? "t" : "x", out = (neighbours & kAfter) ? "u" : "y";
    if (neighbours & kBefore) {
        addConv(mb, "c0", "x", "t", t.c, t.c, 1, 1, 1, 0, 1, 31);
    }
    if (fused) {
        addFused(mb, t, in, out, biases);
    } else {
        auto a = mb.op(Schema::OpType::Convolution, "pw", {in, "w1", biases ? "b1" : ""}, {"mid"});
        a->param.Set(convParam(1, 1, {0, 0, 0, 0}, 1, 1, t.act1));
        auto b = mb.op(Schema::OpType::Convolution, "pwdw", {"mid", "w2", biases ? "b2" : ""}, {out});
        b->param.Set(convParam(t.k, t.s, t.pads, t.dil, t.e, t.act2));
    }
    if (neighbours & kAfter) {
        addConv(mb, "c2", "u", "y", t.e, 5, 1, 1, 1, 0, 1, 32);
    }
    mb.output("y");
    return mb.finish();
}

const std::vector<PwDwCase>& cases() {
    static const std::vector<PwDwCase> c = {
        {1, 16, 96, 20, 20, 3, 1, {1, 1, 1, 1}, 1, Act::CLIP, Act::CLIP},            // mobilenet_v2 block
        {1, 24, 144, 13, 11, 3, 2, {1, 1, 1, 1}, 1, Act::CLIP, Act::CLIP},           // stride 2, odd plane
        {2, 3, 35, 9, 17, 5, 2, {2, 2, 2, 2}, 1, Act::SILU, Act::SILU},              // 5x5, E % 16, batch 2
        {1, 40, 72, 7, 7, 3, 1, {2, 2, 2, 2}, 2, Act::HARD_SWISH, Act::RELU},        // dilation 2
        {1, 17, 48, 1, 30, 3, 1, {1, 1, 1, 1}, 1, Act::RELU, Act::NONE},             // one row
        {1, 8, 32, 12, 12, 3, 2, {0, 1, 2, 0}, 1, Act::NONE, Act::CLIP},             // asymmetric pads
        {1, 20, 16, 6, 5, 5, 1, {4, 0, 0, 4}, 1, Act::CLIP, Act::HARD_SWISH},        // windows mostly padding
        // dilation 2 under top padding 3: output row 1's first row (0) is above row 0's (1); one-row
        // bands with Memory_Low (lraspp's dilated blocks)
        {1, 8, 64, 12, 12, 5, 1, {3, 3, 3, 3}, 2, Act::HARD_SWISH, Act::HARD_SWISH},
    };
    return c;
}

std::string caseName(const PwDwCase& t) {
    return "n" + std::to_string(t.n) + " c" + std::to_string(t.c) + " e" + std::to_string(t.e) + " " +
           std::to_string(t.h) + "x" + std::to_string(t.w) + " k" + std::to_string(t.k) + " s" + std::to_string(t.s) +
           " d" + std::to_string(t.dil);
}

/**
 * the packed model on every ISA tier, at 1-3 threads, with the normal and the smallest bands
 * (Memory_Low, Precision_High); check(run, label) sees each run, label naming tier / threads / memory
 */
template <class Check>
void forEachPackedRun(const std::vector<uint8_t>& model, const Tensor* x, Check check) {
    const int best = (int)cpuFeatures().best;
    for (int tier = 0; tier <= best; ++tier) {
        cpuSetTierOverride(tier);
        for (int threads = 1; threads <= 3; ++threads) {
            for (auto memory : {BackendConfig::Memory_Normal, BackendConfig::Memory_Low}) {
                auto r =
                    runWithLayout(model, {{"x", x}}, "packed", threads, nullptr, BackendConfig::Precision_High, memory);
                check(r, " tier " + std::to_string(tier) + " threads " + std::to_string(threads) + " memory " +
                             std::to_string((int)memory));
            }
        }
    }
    cpuSetTierOverride(-1);
}

TEST(PointwiseDepthwise, PlainPairEqualsUnfusedConvolutions) {
    for (const auto& t : cases()) {
        for (bool biases : {true, false}) {
            auto x = makeTensor({t.n, t.c, t.h, t.w}, randomFloats((size_t)t.n * t.c * t.h * t.w, 7));
            auto ref = runWithLayout(pairModel(t, false, 0, biases), {{"x", x.get()}}, "plain", 1, "reference");
            auto fusedRef = runWithLayout(pairModel(t, true, 0, biases), {{"x", x.get()}}, "plain", 1, "reference");
            auto fusedFast = runWithLayout(pairModel(t, true, 0, biases), {{"x", x.get()}}, "plain", 2);
            ASSERT_EQ(ref.code, NO_ERROR) << caseName(t);
            ASSERT_EQ(fusedRef.code, NO_ERROR) << caseName(t);
            ASSERT_EQ(fusedFast.code, NO_ERROR) << caseName(t);
            EXPECT_EQ(maxRelativeDiff(fusedRef, ref), 0.0) << caseName(t);
            EXPECT_LT(maxRelativeDiff(fusedFast, ref), 1e-5) << caseName(t);
        }
    }
}

TEST(PointwiseDepthwise, PackedBandsMatchReference) {
    for (const auto& t : cases()) {
        // the pair packed on both sides, on one (the other converted in scratch); on none it is plain
        for (int neighbours : {kBefore | kAfter, kBefore, kAfter}) {
            auto model = pairModel(t, true, neighbours);
            auto x = makeTensor({t.n, t.c, t.h, t.w}, randomFloats((size_t)t.n * t.c * t.h * t.w, 8));
            auto ref = runWithLayout(model, {{"x", x.get()}}, "plain", 1, "reference");
            ASSERT_EQ(ref.code, NO_ERROR) << caseName(t);
            forEachPackedRun(model, x.get(), [&](LayoutRun& r, const std::string& run) {
                ASSERT_EQ(r.code, NO_ERROR) << caseName(t);
                EXPECT_EQ(r.algorithms["pwdw"].rfind("packed-pwdw", 0), 0u) << r.algorithms["pwdw"];
                if (neighbours & kBefore) {
                    EXPECT_EQ(r.layouts["t"], "NC16HW16");
                }
                if (neighbours & kAfter) {
                    EXPECT_EQ(r.layouts["u"], "NC16HW16");
                }
                EXPECT_LT(maxRelativeDiff(r, ref), 1e-5) << caseName(t) << run << " neighbours " << neighbours;
            });
        }
    }
}

/**
 * the pair (fused) with its output's global average pool: as a separate Pooling op (fusedMean false,
 * the oracle) or as the PointwiseDepthwise's second output M. Y -> [1x1 conv c2] -> y; M -> [1x1
 * conv c3] -> z (a squeeze-excite block's first FC: M packed) or M itself as a graph output (plain)
 */
std::vector<uint8_t> meanModel(const PwDwCase& t, bool fusedMean, bool meanConv) {
    ModelBuilder mb;
    mb.input("x", {t.n, t.c, t.h, t.w});
    addPairConstants(mb, t, true);
    addConv(mb, "c0", "x", "t", t.c, t.c, 1, 1, 1, 0, 1, 31);
    auto pwdw = addFused(mb, t, "t", "u", true);
    if (fusedMean) {
        pwdw->outputs.push_back(mb.tensor("m"));
    } else {
        auto pool = mb.op(Schema::OpType::Pooling, "gap", {"u"}, {"m"});
        Schema::PoolParamT p;
        p.type = Schema::PoolType::AVERAGEPOOL;
        p.global = true;
        pool->param.Set(p);
    }
    addConv(mb, "c2", "u", "y", t.e, 5, 1, 1, 1, 0, 1, 32);
    mb.output("y");
    if (meanConv) {
        addConv(mb, "c3", "m", "z", t.e, 4, 1, 1, 1, 0, 1, 33);
        mb.output("z");
    } else {
        mb.output("m");
    }
    return mb.finish();
}

TEST(PointwiseDepthwise, MeanOutputMatchesTheGlobalPool) {
    for (const auto& t : cases()) {
        for (bool meanConv : {true, false}) {
            auto x = makeTensor({t.n, t.c, t.h, t.w}, randomFloats((size_t)t.n * t.c * t.h * t.w, 9));
            auto ref = runWithLayout(meanModel(t, false, meanConv), {{"x", x.get()}}, "plain", 1, "reference");
            ASSERT_EQ(ref.code, NO_ERROR) << caseName(t);
            auto model = meanModel(t, true, meanConv);
            // the plain pair (reference convolutions, then the means in double) and the fast plain one
            auto plainRef = runWithLayout(model, {{"x", x.get()}}, "plain", 1, "reference");
            auto plainFast = runWithLayout(model, {{"x", x.get()}}, "plain", 2);
            ASSERT_EQ(plainRef.code, NO_ERROR) << caseName(t);
            ASSERT_EQ(plainFast.code, NO_ERROR) << caseName(t);
            EXPECT_LT(maxRelativeDiff(plainRef, ref), 1e-6) << caseName(t);
            EXPECT_LT(maxRelativeDiff(plainFast, ref), 1e-5) << caseName(t);
            // packed neighbours, the reference pair through the converting adapter (two outputs)
            auto adapted = runWithLayout(model, {{"x", x.get()}}, "packed", 2, "reference");
            ASSERT_EQ(adapted.code, NO_ERROR) << caseName(t);
            EXPECT_EQ(adapted.layouts["u"], "NC16HW16") << adapted.algorithms["pwdw"];
            EXPECT_LT(maxRelativeDiff(adapted, ref), 1e-6) << caseName(t);
            forEachPackedRun(model, x.get(), [&](LayoutRun& r, const std::string& run) {
                ASSERT_EQ(r.code, NO_ERROR) << caseName(t);
                EXPECT_EQ(r.algorithms["pwdw"].rfind("packed-pwdw+mean", 0), 0u) << r.algorithms["pwdw"];
                EXPECT_EQ(r.layouts["m"], meanConv ? "NC16HW16" : "NCHW") << caseName(t);
                EXPECT_LT(maxRelativeDiff(r, ref), 1e-5) << caseName(t) << run << " mean conv " << meanConv;
            });
        }
    }
}

TEST(PointwiseDepthwise, RingScratchDoesNotGrowWithTheBatch) {
    // the banded kernel's ring buffers are those of one image's work items (the images run one
    // after another): a batch of 64 thin images expanded to 1024 channels, stride 4, takes 0.3 MB of
    // rings, well inside a 16 MB arena limit beside the 11 MB arena (a ring per work item of the
    // whole batch took 18 MB, refused by that limit)
    const PwDwCase t{64, 1, 1024, 24, 24, 3, 4, {1, 1, 1, 1}, 1, Act::CLIP, Act::CLIP};
    auto model = pairModel(t, true, kBefore | kAfter);
    auto x = makeTensor({t.n, t.c, t.h, t.w}, randomFloats((size_t)t.n * t.c * t.h * t.w, 8));
    auto ref = runWithLayout(model, {{"x", x.get()}}, "plain", 1, "reference");
    ASSERT_EQ(ref.code, NO_ERROR);
    for (int threads = 1; threads <= 2; ++threads) {
        auto r = runWithLayout(model, {{"x", x.get()}}, "packed", threads, nullptr, BackendConfig::Precision_High,
                               BackendConfig::Memory_Normal, 16);
        ASSERT_EQ(r.code, NO_ERROR) << "threads " << threads;
        EXPECT_EQ(r.algorithms["pwdw"].rfind("packed-pwdw", 0), 0u) << r.algorithms["pwdw"];
        EXPECT_LT(maxRelativeDiff(r, ref), 1e-5) << "threads " << threads;
    }
}

// a model with a broken pair is refused when the session is made, with no crash
void expectRefused(const PwDwCase& t, const std::vector<int>& w1, const std::vector<int>& w2, int pwStride,
                   int dwGroup) {
    ModelBuilder mb;
    mb.input("x", {t.n, t.c, t.h, t.w});
    size_t n1 = 1, n2 = 1;
    for (auto d : w1) {
        n1 *= (size_t)d;
    }
    for (auto d : w2) {
        n2 *= (size_t)d;
    }
    mb.constant("w1", w1, randomFloats(n1, 1));
    mb.constant("w2", w2, randomFloats(n2, 2));
    auto op = mb.op(Schema::OpType::PointwiseDepthwise, "pwdw", {"x", "w1", "", "w2", ""}, {"y"});
    Schema::PointwiseDepthwiseParamT p;
    p.pointwise.reset(new Schema::ConvParamT(convParam(w1[2], pwStride, {0, 0, 0, 0}, 1, 1, Act::NONE)));
    p.depthwise.reset(new Schema::ConvParamT(convParam(t.k, t.s, t.pads, 1, dwGroup, Act::NONE)));
    op->param.Set(p);
    mb.output("y");
    auto x = makeTensor({t.n, t.c, t.h, t.w}, randomFloats((size_t)t.n * t.c * t.h * t.w, 3));
    for (const char* layout : {"plain", "packed"}) {
        auto r = runWithLayout(mb.finish(), {{"x", x.get()}}, layout, 1);
        EXPECT_NE(r.code, NO_ERROR) << layout;
    }
}

TEST(PointwiseDepthwise, MalformedPairsAreRefused) {
    const PwDwCase t{1, 8, 16, 6, 6, 3, 1, {1, 1, 1, 1}, 1, Act::NONE, Act::NONE};
    expectRefused(t, {16, 8, 3, 3}, {16, 1, 3, 3}, 1, 16);  // pointwise 3x3
    expectRefused(t, {16, 8, 1, 1}, {16, 1, 3, 3}, 2, 16);  // pointwise stride 2
    expectRefused(t, {16, 8, 1, 1}, {16, 2, 3, 3}, 1, 8);   // second conv grouped, not depthwise
    expectRefused(t, {16, 8, 1, 1}, {8, 1, 3, 3}, 1, 16);   // W2 channels != E
    expectRefused(t, {16, 6, 1, 1}, {16, 1, 3, 3}, 1, 16);  // W1 channels != C
}

}  // namespace
