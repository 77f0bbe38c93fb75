// ConvolutionPool (a convolution then a Max / Average pooling, fused by the converter): the plain
// pair against the unfused graph (Convolution then Pooling, reference kernels), and the banded packed
// kernel (CPUConvolutionPacked.cpp), Winograd with the pool inside (or as a pair) and the packed
// pair (depthwise convolutions) against the unfused reference on every ISA tier at 1-3 threads,
// with plain (RGB stem) and packed inputs; malformed ops are refused when the session is made.
#include <math.h>
#include <string.h>
#include "PackedTestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

using Act = Schema::FusedActivation;
using PT = Schema::PoolType;

struct CpCase {
    int n, c, m, h, w;     // X [n, c, h, w], M output channels
    int k, s, pad, group;  // the convolution (square kernel, symmetric pads)
    Act act;
    PT type;
    int pk, ps, pdil;        // the pooling window
    std::vector<int> ppads;  // top, left, bottom, right
    bool ceil, includePad;
    bool before;            // a 1x1 convolution in front: X of the fused op packed (else the graph input)
    const char* algorithm;  // the packed Execution's algorithm starts with this
    int nanEvery;           // > 0: every nanEvery-th input element is NaN
};

Schema::ConvParamT convParam(const CpCase& t) {
    Schema::ConvParamT p;
    p.kernel = {t.k, t.k};
    p.strides = {t.s, t.s};
    p.dilations = {1, 1};
    p.pads = {t.pad, t.pad, t.pad, t.pad};
    p.group = t.group;
    p.activation = t.act;
    p.clipMin = 0.0f;
    p.clipMax = 6.0f;
    return p;
}

Schema::PoolParamT poolParam(const CpCase& t) {
    Schema::PoolParamT p;
    p.type = t.type;
    p.kernel = {t.pk, t.pk};
    p.strides = {t.ps, t.ps};
    p.dilations = {t.pdil, t.pdil};
    p.pads = t.ppads;
    p.ceilMode = t.ceil;
    p.countIncludePad = t.includePad;
    return p;
}

/**
 * x -> [1x1 conv c0 -> t] -> conv + pool (fused: one ConvolutionPool "cp"; else Convolution "conv"
 * and Pooling "cp") -> u -> [1x1 conv c2 -> y] (after: the fused op's output packed, else the graph
 * output)
 */
std::vector<uint8_t> model(const CpCase& t, bool fused, bool after) {
    ModelBuilder mb;
    mb.input("x", {t.n, t.c, t.h, t.w});
    const int cg = t.c / t.group;
    mb.constant("w", {t.m, cg, t.k, t.k}, randomFloats((size_t)t.m * cg * t.k * t.k, 41, -0.5f, 0.5f));
    mb.constant("b", {t.m}, randomFloats((size_t)t.m, 42));
    const std::string in = t.before ? "t" : "x", out = after ? "u" : "y";
    if (t.before) {
        addConv(mb, "c0", "x", "t", t.c, t.c, 1, 1, 1, 0, 1, 43);
    }
    if (fused) {
        auto op = mb.op(Schema::OpType::ConvolutionPool, "cp", {in, "w", "b"}, {out});
        Schema::ConvolutionPoolParamT p;
        p.conv.reset(new Schema::ConvParamT(convParam(t)));
        p.pool.reset(new Schema::PoolParamT(poolParam(t)));
        op->param.Set(p);
    } else {
        auto c = mb.op(Schema::OpType::Convolution, "conv", {in, "w", "b"}, {"mid"});
        c->param.Set(convParam(t));
        auto p = mb.op(Schema::OpType::Pooling, "cp", {"mid"}, {out});
        p->param.Set(poolParam(t));
    }
    if (after) {
        addConv(mb, "c2", "u", "y", t.m, 5, 1, 1, 1, 0, 1, 44);
    }
    mb.output("y");
    return mb.finish();
}

const std::vector<CpCase>& cases() {
    static const std::vector<CpCase> c = {
        // RGB stems (NHWC folded, banded): resnet's 7x7 / max 3x3 s2, shufflenet's 24 channels (a half
        // block), squeezenet's unpadded 3x3 (odd plane), an average pool, batch 2
        {1,
         3,
         64,
         61,
         58,
         7,
         2,
         3,
         1,
         Act::RELU,
         PT::MAXPOOL,
         3,
         2,
         1,
         {1, 1, 1, 1},
         false,
         false,
         false,
         "packed-nhwc+maxpool",
         0},
        {1,
         3,
         24,
         50,
         47,
         3,
         2,
         1,
         1,
         Act::RELU,
         PT::MAXPOOL,
         3,
         2,
         1,
         {1, 1, 1, 1},
         false,
         false,
         false,
         "packed-nhwc+maxpool",
         0},
        {2,
         3,
         40,
         45,
         45,
         3,
         2,
         0,
         1,
         Act::RELU,
         PT::MAXPOOL,
         3,
         2,
         1,
         {0, 0, 0, 0},
         true,
         false,
         false,
         "packed-nhwc+maxpool",
         0},
        {2,
         3,
         20,
         33,
         30,
         3,
         2,
         1,
         1,
         Act::SILU,
         PT::AVERAGEPOOL,
         3,
         2,
         1,
         {1, 1, 1, 1},
         true,
         true,
         false,
         "packed-nhwc+avgpool",
         0},
        // NaN inputs through the bands and the max
        {1,
         3,
         16,
         29,
         31,
         3,
         2,
         1,
         1,
         Act::NONE,
         PT::MAXPOOL,
         3,
         2,
         1,
         {1, 1, 1, 1},
         false,
         false,
         false,
         "packed-nhwc+maxpool",
         13},
        // packed X: strided 3x3 (64 channels: the stride-2 Winograd, 56 tiles of 2x2; 8 channels: the
        // direct kernel in bands), 2x2 / 3x3-stride-1 / dilated / asymmetric pools, tall bands
        {1,
         64,
         48,
         30,
         28,
         3,
         2,
         1,
         1,
         Act::CLIP,
         PT::MAXPOOL,
         2,
         2,
         1,
         {0, 0, 0, 0},
         false,
         false,
         true,
         "packed-winograd F(2,3) s2",
         0},
        {1,
         8,
         48,
         30,
         28,
         3,
         2,
         1,
         1,
         Act::CLIP,
         PT::MAXPOOL,
         2,
         2,
         1,
         {0, 0, 0, 0},
         false,
         false,
         true,
         "packed+maxpool",
         0},
        {1,
         16,
         20,
         17,
         19,
         3,
         2,
         1,
         1,
         Act::HARD_SWISH,
         PT::AVERAGEPOOL,
         3,
         1,
         1,
         {1, 1, 1, 1},
         false,
         false,
         true,
         "packed+avgpool",
         0},
        {2,
         24,
         33,
         26,
         21,
         5,
         2,
         2,
         1,
         Act::RELU,
         PT::MAXPOOL,
         3,
         1,
         2,
         {2, 0, 1, 3},
         false,
         false,
         true,
         "packed+maxpool",
         0},
        {1,
         20,
         16,
         8,
         120,
         1,
         2,
         0,
         1,
         Act::NONE,
         PT::MAXPOOL,
         3,
         2,
         1,
         {1, 1, 1, 1},
         true,
         false,
         true,
         "packed+maxpool",
         0},
        // a 1x1 stride-1 convolution (not flattened in bands) under windows mostly padding
        {1,
         40,
         24,
         9,
         11,
         1,
         1,
         0,
         1,
         Act::RELU,
         PT::AVERAGEPOOL,
         5,
         3,
         1,
         {4, 4, 4, 4},
         false,
         false,
         true,
         "packed+avgpool",
         0},
        // the packed pair: Winograd (3x3 stride 1 on many channels), depthwise
        {1,
         64,
         64,
         28,
         28,
         3,
         1,
         1,
         1,
         Act::RELU,
         PT::MAXPOOL,
         2,
         2,
         1,
         {0, 0, 0, 0},
         false,
         false,
         true,
         "packed-winograd",
         0},
        {1,
         32,
         32,
         20,
         20,
         3,
         1,
         1,
         32,
         Act::RELU,
         PT::MAXPOOL,
         3,
         2,
         1,
         {1, 1, 1, 1},
         false,
         false,
         true,
         "packed-depthwise",
         0},
    };
    return c;
}

std::string caseName(const CpCase& t) {
    return "n" + std::to_string(t.n) + " c" + std::to_string(t.c) + " m" + std::to_string(t.m) + " " +
           std::to_string(t.h) + "x" + std::to_string(t.w) + " k" + std::to_string(t.k) + " s" + std::to_string(t.s) +
           (t.type == PT::MAXPOOL ? " max" : " avg") + std::to_string(t.pk) + " s" + std::to_string(t.ps) + " d" +
           std::to_string(t.pdil);
}

std::shared_ptr<Tensor> input(const CpCase& t, unsigned seed) {
    auto v = randomFloats((size_t)t.n * t.c * t.h * t.w, seed);
    for (size_t i = 0; t.nanEvery > 0 && i < v.size(); i += (size_t)t.nanEvery) {
        v[i] = NAN;
    }
    return std::shared_ptr<Tensor>(makeTensor({t.n, t.c, t.h, t.w}, v).release());
}

TEST(ConvolutionPool, PlainPairEqualsUnfusedGraph) {
    for (const auto& t : cases()) {
        auto x = input(t, 7);
        auto ref = runWithLayout(model(t, false, false), {{"x", x.get()}}, "plain", 1, "reference");
        auto fusedRef = runWithLayout(model(t, true, false), {{"x", x.get()}}, "plain", 1, "reference");
        auto fusedFast = runWithLayout(model(t, true, false), {{"x", x.get()}}, "plain", 2);
        ASSERT_EQ(ref.code, NO_ERROR) << caseName(t);
        ASSERT_EQ(fusedRef.code, NO_ERROR) << caseName(t);
        ASSERT_EQ(fusedFast.code, NO_ERROR) << caseName(t);
        EXPECT_EQ(ref.shapes["y"], fusedRef.shapes["y"]) << caseName(t);
        EXPECT_EQ(nanAwareDiff(fusedRef, ref, 1e-6), 0.0) << caseName(t);
        EXPECT_LT(nanAwareDiff(fusedFast, ref, 1e-6), 1e-5) << caseName(t);
    }
}

TEST(ConvolutionPool, PackedMatchesUnfusedReference) {
    const int best = (int)cpuFeatures().best;
    for (const auto& t : cases()) {
        auto x = input(t, 8);
        auto ref = runWithLayout(model(t, false, true), {{"x", x.get()}}, "plain", 1, "reference");
        ASSERT_EQ(ref.code, NO_ERROR) << caseName(t);
        auto fused = model(t, true, true);
        for (int tier = 0; tier <= best; ++tier) {
            cpuSetTierOverride(tier);
            for (int threads = 1; threads <= 3; ++threads) {
                auto r = runWithLayout(fused, {{"x", x.get()}}, "packed", threads);
                ASSERT_EQ(r.code, NO_ERROR) << caseName(t);
                EXPECT_EQ(r.layouts["u"], "NC16HW16") << caseName(t);
                EXPECT_EQ(r.algorithms["cp"].rfind(t.algorithm, 0), 0u) << caseName(t) << ": " << r.algorithms["cp"];
                EXPECT_LT(nanAwareDiff(r, ref, 1e-6), 1e-5)
                    << caseName(t) << " tier " << tier << " threads " << threads;
            }
        }
        cpuSetTierOverride(-1);
    }
}

TEST(ConvolutionPool, WinogradWithThePoolInsideMatchesUnfusedReference) {
    // the pool inside the packed Winograd Execution (strips of pooled rows over bands of convolution
    // rows, each strip computing the tile rows it needs): at Precision_Normal and with each forced
    // tile size, on every tier at 1-3 threads, against the unfused reference. Strips start inside a
    // tile row (stride-2 pools over 4- and 6-row tiles), dilated / padded / ceil-mode pools, average
    // pools counting pads, batch 2; where the threads would get fewer than two pooled rows each the
    // pair (convolution, then the pool) runs instead
    const std::vector<CpCase> all = {
        // resnet's stem as F(4x4, 4x4) on the space-to-depth input, then max 3x3 s2
        {1, 3, 64, 61, 58, 7, 2, 3, 1, Act::RELU, PT::MAXPOOL, 3, 2, 1, {1, 1, 1, 1}, false, false, false, "", 0},
        {2, 3, 24, 64, 64, 7, 2, 3, 1, Act::NONE, PT::AVERAGEPOOL, 3, 2, 1, {1, 1, 1, 1}, true, true, false, "", 0},
        // 3x3 stride-1 Winograd (F(2), F(4), F(6) forced), then pools
        {1, 64, 48, 28, 28, 3, 1, 1, 1, Act::RELU, PT::MAXPOOL, 3, 2, 1, {1, 1, 1, 1}, false, false, true, "", 0},
        {2, 32, 40, 35, 33, 3, 1, 0, 1, Act::CLIP, PT::MAXPOOL, 3, 1, 2, {2, 0, 1, 3}, false, false, true, "", 0},
        {1, 24, 17, 30, 27, 3, 1, 1, 1, Act::SILU, PT::AVERAGEPOOL, 3, 2, 1, {0, 1, 1, 0}, true, false, true, "", 0},
        // two pooled rows: fused at one thread, the pair at two and three
        {1, 64, 64, 14, 56, 3, 1, 1, 1, Act::RELU, PT::MAXPOOL, 7, 7, 1, {0, 0, 0, 0}, false, false, true, "", 0},
    };
    const int best = (int)cpuFeatures().best;
    for (size_t ci = 0; ci < all.size(); ++ci) {
        const CpCase& t = all[ci];
        auto x = input(t, 20 + (unsigned)ci);
        auto ref = runWithLayout(model(t, false, true), {{"x", x.get()}}, "plain", 1, "reference");
        ASSERT_EQ(ref.code, NO_ERROR) << caseName(t);
        // the pooled rows (ONNX's output size, ceil mode's last window starting inside)
        const int oh = (t.h + 2 * t.pad - t.k) / t.s + 1, span = (t.pk - 1) * t.pdil + 1;
        const int num = oh + t.ppads[0] + t.ppads[2] - span;
        int pooledRows = (t.ceil ? (num + t.ps - 1) / t.ps : num / t.ps) + 1;
        if (t.ceil && (pooledRows - 1) * t.ps >= oh + t.ppads[0]) {
            --pooledRows;
        }
        ASSERT_GT(pooledRows, 0) << caseName(t);
        auto fused = model(t, true, true);
        const char* algos[] = {"", "winograd2", "winograd4", "winograd6"};
        for (int tier = 0; tier <= best; ++tier) {
            cpuSetTierOverride(tier);
            for (int threads = 1; threads <= 3; ++threads) {
                for (const char* algo : algos) {
                    if (t.k == 7 && algo[0] && strcmp(algo, "winograd4") != 0) {
                        continue;  // the stem is F(4,4) only
                    }
                    const std::string where = caseName(t) + " tier " + std::to_string(tier) + " threads " +
                                              std::to_string(threads) + " " + algo;
                    auto r = runWithLayout(fused, {{"x", x.get()}}, "packed", threads, algo,
                                           BackendConfig::Precision_Normal);
                    ASSERT_EQ(r.code, NO_ERROR) << where;
                    const std::string& a = r.algorithms["cp"];
                    EXPECT_EQ(a.rfind("packed-winograd", 0), 0u) << where << ": " << a;
                    const bool inside = pooledRows >= 2 * threads;
                    const char* suffix = t.type == PT::MAXPOOL ? "+maxpool " : "+avgpool ";
                    EXPECT_EQ(a.find(suffix) != std::string::npos, inside) << where << ": " << a;
                    EXPECT_LT(nanAwareDiff(r, ref, 1e-6), 1e-4) << where << ": " << a;
                }
            }
        }
        cpuSetTierOverride(-1);
    }
}

TEST(ConvolutionPool, PlainOutputRunsThePlainPair) {
    // the fused op's output is the graph output (plain): the adapter runs the plain pair on packed X
    const CpCase& t = cases()[5];
    auto x = input(t, 9);
    auto ref = runWithLayout(model(t, false, false), {{"x", x.get()}}, "plain", 1, "reference");
    auto r = runWithLayout(model(t, true, false), {{"x", x.get()}}, "packed", 2);
    ASSERT_EQ(ref.code, NO_ERROR);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.layouts["y"], "NCHW");
    EXPECT_LT(nanAwareDiff(r, ref, 1e-6), 1e-5);
}

// a model with a malformed ConvolutionPool is refused when the session is made, with no crash
void expectRefused(const CpCase& t, const std::vector<int>& wDims, bool global, PT type, bool param = true) {
    ModelBuilder mb;
    mb.input("x", {t.n, t.c, t.h, t.w});
    size_t count = 1;
    for (auto d : wDims) {
        count *= (size_t)d;
    }
    mb.constant("w", wDims, randomFloats(count, 1));
    auto op = mb.op(Schema::OpType::ConvolutionPool, "cp", {"x", "w"}, {"y"});
    if (param) {
        Schema::ConvolutionPoolParamT p;
        p.conv.reset(new Schema::ConvParamT(convParam(t)));
        auto pool = poolParam(t);
        pool.global = global;
        pool.type = type;
        p.pool.reset(new Schema::PoolParamT(pool));
        op->param.Set(p);
    }
    mb.output("y");
    auto x = makeTensor({t.n, t.c, t.h, t.w}, randomFloats((size_t)t.n * t.c * t.h * t.w, 3));
    for (const char* layout : {"plain", "packed"}) {
        auto r = runWithLayout(mb.finish(), {{"x", x.get()}}, layout, 1);
        EXPECT_NE(r.code, NO_ERROR) << layout;
    }
}

TEST(ConvolutionPool, MalformedOpsAreRefused) {
    const CpCase t{1,           8, 16, 12, 12,           3,     1,     1,     1,  Act::NONE,
                   PT::MAXPOOL, 3, 2,  1,  {1, 1, 1, 1}, false, false, false, "", 0};
    expectRefused(t, {16, 6, 3, 3}, false, PT::MAXPOOL);         // W's channels != X's
    expectRefused(t, {16, 8, 3, 3}, true, PT::MAXPOOL);          // a global pool
    expectRefused(t, {16, 8, 3, 3}, false, PT::LPPOOL);          // an Lp pool
    expectRefused(t, {16, 8, 3, 3}, false, PT::MAXPOOL, false);  // no ConvolutionPoolParam
    CpCase big = t;
    big.pk = 20;  // a window larger than the convolution's 12 x 12 output, no padding
    big.ppads = {0, 0, 0, 0};
    expectRefused(big, {16, 8, 3, 3}, false, PT::MAXPOOL);
}

}  // namespace
