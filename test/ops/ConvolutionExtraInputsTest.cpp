// Convolution's optional inputs against the unfused graphs run by the reference kernels, on every ISA
// tier at 1-3 threads: S (input 3, conv(X * S), a squeeze-excite Mul folded in by the converter)
// against BinaryOp MUL then the convolution: the packed kernel scaling its weights per image
// ("-scaled"), the wrapper that scales X into scratch (other algorithms, plain layout); R (input 4,
// act(conv + B + R), a residual Add and the activation after it folded in) against the linear
// convolution, Add and UnaryOp: the packed kernel adding R to each stored tile ("-residual"), the
// wrapper after Winograd / plain layouts / mixed layouts. S and R shapes that do not fit are refused.
#include "PackedTestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {

struct ScaleCase {
    int n, c, m, h, w, k;  // X [n, c, h, w], W [m, c, k, k] (pad k / 2)
    int sImages;           // S [sImages, c, 1, 1]
    bool weightsScaled;    // the packed kernel scales its weights (m * k * k <= h * w)
};

std::string caseName(const ScaleCase& t) {
    return "n" + std::to_string(t.n) + " c" + std::to_string(t.c) + " m" + std::to_string(t.m) + " " +
           std::to_string(t.h) + "x" + std::to_string(t.w) + " k" + std::to_string(t.k) + " S images " +
           std::to_string(t.sImages);
}

Schema::ConvParamT convParam(int k) {
    Schema::ConvParamT p;
    p.kernel = {k, k};
    p.strides = {1, 1};
    p.dilations = {1, 1};
    p.pads = {k / 2, k / 2, k / 2, k / 2};
    p.group = 1;
    p.activation = Schema::FusedActivation::RELU;
    return p;
}

/**
 * x -> [conv c0 when packedIn] -> t ; s -> [1x1 conv cs + sigmoid when sFromOps] -> g (plain: only X is
 * a data slot of a Convolution);
 * fused: conv(t, W, B, g) -> y ; unfused: t * g -> conv(W, B) -> y
 */
std::vector<uint8_t> scaleModel(const ScaleCase& t, bool fused, bool packedIn, bool sFromOps) {
    ModelBuilder mb;
    mb.input("x", {t.n, t.c, t.h, t.w});
    mb.input("s", {t.sImages, t.c, 1, 1});
    std::string in = "x", g = "s";
    if (packedIn) {
        addConv(mb, "c0", "x", "t", t.c, t.c, 1, 1, 1, 0, 1, 41);
        in = "t";
    }
    if (sFromOps) {
        addConv(mb, "cs", "s", "s1", t.c, t.c, 1, 1, 1, 0, 1, 43);
        Schema::UnaryParamT up;
        up.type = Schema::UnaryOpType::SIGMOID;
        mb.op(Schema::OpType::UnaryOp, "sig", {"s1"}, {"g"})->param.Set(up);
        g = "g";
    }
    mb.constant("w", {t.m, t.c, t.k, t.k}, randomFloats((size_t)t.m * t.c * t.k * t.k, 45, -0.5f, 0.5f));
    mb.constant("b", {t.m}, randomFloats((size_t)t.m, 46));
    if (fused) {
        mb.op(Schema::OpType::Convolution, "sc", {in, "w", "b", g}, {"y"})->param.Set(convParam(t.k));
    } else {
        Schema::BinaryParamT bp;
        bp.type = Schema::BinaryOpType::MUL;
        mb.op(Schema::OpType::BinaryOp, "mul", {in, g}, {"m"})->param.Set(bp);
        mb.op(Schema::OpType::Convolution, "sc", {"m", "w", "b"}, {"y"})->param.Set(convParam(t.k));
    }
    mb.output("y");
    return mb.finish();
}

const std::vector<ScaleCase>& cases() {
    static const std::vector<ScaleCase> c = {
        {1, 40, 24, 14, 14, 1, 1, true},     // squeeze-excite projection: 24 weights per channel < 196 positions
        {2, 24, 200, 8, 8, 1, 2, false},     // more weights than positions: X scaled, per image
        {2, 128, 128, 10, 10, 3, 2, false},  // 3x3: Winograd runs (on X * S), per image
        {1, 32, 32, 12, 12, 3, 1, false},    // 3x3 wider than the plane: X scaled (Winograd or direct)
        {2, 3, 8, 16, 16, 1, 1, true},       // 3 channels: a plain X runs NHWC; one S for both images
        {3, 35, 17, 9, 7, 1, 3, true},       // channel and output tails
        // a projection of 600 -> 72 channels (38 K blocks, more weights than positions: X scaled): K-sliced,
        // and at two threads K split at the scaled copy's half (its blocks' split, splitBlock 19)
        {1, 600, 72, 7, 7, 1, 1, false},
    };
    return c;
}

struct Inputs {
    std::unique_ptr<Tensor> x, s;
};

Inputs makeInputs(const ScaleCase& t, unsigned seed) {
    Inputs in;
    in.x = makeTensor({t.n, t.c, t.h, t.w}, randomFloats((size_t)t.n * t.c * t.h * t.w, seed));
    in.s = makeTensor({t.sImages, t.c, 1, 1}, randomFloats((size_t)t.sImages * t.c, seed + 1, 0.0f, 2.0f));
    return in;
}

}  // namespace

TEST(ConvolutionInputScale, ReferenceEqualsUnfusedMul) {
    for (const auto& t : cases()) {
        auto in = makeInputs(t, 7);
        const std::map<std::string, const Tensor*> feeds = {{"x", in.x.get()}, {"s", in.s.get()}};
        auto ref = runWithLayout(scaleModel(t, false, false, false), feeds, "plain", 1, "reference");
        auto fusedRef = runWithLayout(scaleModel(t, true, false, false), feeds, "plain", 1, "reference");
        auto fusedFast = runWithLayout(scaleModel(t, true, false, false), feeds, "plain", 2);
        ASSERT_EQ(ref.code, NO_ERROR) << caseName(t);
        ASSERT_EQ(fusedRef.code, NO_ERROR) << caseName(t);
        ASSERT_EQ(fusedFast.code, NO_ERROR) << caseName(t);
        // the wrapper rounds X * S as the Mul does: the same reference sums
        EXPECT_EQ(maxRelativeDiff(fusedRef, ref), 0.0) << caseName(t);
        EXPECT_LT(maxRelativeDiff(fusedFast, ref), 1e-5) << caseName(t);
    }
}

TEST(ConvolutionInputScale, PackedMatchesReferenceOnEveryTier) {
    for (const auto& t : cases()) {
        for (bool packedIn : {true, false}) {
            for (bool sFromOps : {true, false}) {
                auto in = makeInputs(t, 11);
                const std::map<std::string, const Tensor*> feeds = {{"x", in.x.get()}, {"s", in.s.get()}};
                auto ref = runWithLayout(scaleModel(t, false, packedIn, sFromOps), feeds, "plain", 1, "reference");
                ASSERT_EQ(ref.code, NO_ERROR) << caseName(t);
                auto model = scaleModel(t, true, packedIn, sFromOps);
                const int best = (int)cpuFeatures().best;
                for (int tier = 0; tier <= best; ++tier) {
                    cpuSetTierOverride(tier);
                    for (int threads = 1; threads <= 3; ++threads) {
                        auto r = runWithLayout(model, feeds, "packed", threads);
                        ASSERT_EQ(r.code, NO_ERROR) << caseName(t);
                        const std::string algo = r.algorithms["sc"];
                        if (packedIn) {
                            EXPECT_EQ(r.layouts["t"], "NC16HW16");
                            EXPECT_EQ(algo.find("-scaled") != std::string::npos, t.weightsScaled)
                                << caseName(t) << ": " << algo;
                        }
                        if (sFromOps) {
                            EXPECT_EQ(r.layouts["g"], "NCHW");  // S is not a data slot
                        }
                        EXPECT_LT(maxRelativeDiff(r, ref), 1e-5)
                            << caseName(t) << " tier " << tier << " threads " << threads << " packed X " << packedIn
                            << " S from ops " << sFromOps << " " << algo;
                    }
                }
                cpuSetTierOverride(-1);
            }
        }
    }
}

TEST(ConvolutionInputScale, OneDimensionalConvolutionScalesItsInput) {
    // X [2, 5, 20], S [2, 5, 1]: the wrapper over the reference / fast 1-D kernels
    ModelBuilder fused, unfused;
    for (auto* mb : {&fused, &unfused}) {
        mb->input("x", {2, 5, 20});
        mb->input("s", {2, 5, 1});
        mb->constant("w", {4, 5, 3}, randomFloats(60, 3, -0.5f, 0.5f));
    }
    Schema::ConvParamT p;
    p.kernel = {3};
    p.strides = {1};
    p.dilations = {1};
    p.pads = {1, 1};
    fused.op(Schema::OpType::Convolution, "sc", {"x", "w", "", "s"}, {"y"})->param.Set(p);
    Schema::BinaryParamT bp;
    bp.type = Schema::BinaryOpType::MUL;
    unfused.op(Schema::OpType::BinaryOp, "mul", {"x", "s"}, {"m"})->param.Set(bp);
    unfused.op(Schema::OpType::Convolution, "sc", {"m", "w"}, {"y"})->param.Set(p);
    fused.output("y");
    unfused.output("y");
    auto x = makeTensor({2, 5, 20}, randomFloats(200, 5));
    auto s = makeTensor({2, 5, 1}, randomFloats(10, 6));
    const std::map<std::string, const Tensor*> feeds = {{"x", x.get()}, {"s", s.get()}};
    auto ref = runWithLayout(unfused.finish(), feeds, "plain", 1, "reference");
    auto a = runWithLayout(fused.finish(), feeds, "plain", 1);
    ASSERT_EQ(ref.code, NO_ERROR);
    ASSERT_EQ(a.code, NO_ERROR);
    EXPECT_LT(maxRelativeDiff(a, ref), 1e-5);
}

TEST(ConvolutionInputScale, ScalesThatDoNotFitAreRefused) {
    const ScaleCase t{2, 8, 4, 6, 6, 1, 2, true};
    for (const auto& sDims : std::vector<std::vector<int>>{{2, 7, 1, 1}, {3, 8, 1, 1}, {2, 8, 2, 1}, {2, 8, 1}}) {
        ModelBuilder mb;
        mb.input("x", {t.n, t.c, t.h, t.w});
        mb.input("s", sDims);
        mb.constant("w", {t.m, t.c, 1, 1}, randomFloats((size_t)t.m * t.c, 1));
        mb.op(Schema::OpType::Convolution, "sc", {"x", "w", "", "s"}, {"y"})->param.Set(convParam(1));
        mb.output("y");
        size_t count = 1;
        for (int d : sDims) {
            count *= (size_t)d;
        }
        auto x = makeTensor({t.n, t.c, t.h, t.w}, randomFloats((size_t)t.n * t.c * t.h * t.w, 3));
        auto s = makeTensor(sDims, randomFloats(count, 4));
        for (const char* layout : {"plain", "packed"}) {
            auto r = runWithLayout(mb.finish(), {{"x", x.get()}, {"s", s.get()}}, layout, 1);
            EXPECT_NE(r.code, NO_ERROR) << layout << " S " << sDims[0] << "x" << sDims[1];
        }
    }
}

namespace {

using Act = Schema::FusedActivation;

struct ResidualCase {
    int n, c, m, h, w, k;  // the expansion X [n, c, h, w] -> U [n, m, h, w]; the tested conv U -> Y [n, c, h, w], k x k
    Act act;
    bool scale;        // S too (one per image)
    bool packedR;      // R packed (an op's output) or a graph input
    bool packedY;      // Y read by a convolution (packed) or a graph output
    const char* algo;  // expected algorithm prefix in the packed run ("" : not checked)
};

Schema::UnaryOpType unaryFor(Act a) {
    switch (a) {
        case Act::RELU:
            return Schema::UnaryOpType::RELU;
        case Act::SILU:
            return Schema::UnaryOpType::SILU;
        default:
            return Schema::UnaryOpType::HARD_SWISH;
    }
}

/**
 * x -> c0 (1x1, c -> c) -> t (the block input) ; t -> c1 (1x1 + Relu, c -> m) -> u ;
 * fused: conv(u, W, B, [g], R = t or x) with act -> y ; unfused: linear conv ([u * g]) -> v, v + R -> a,
 * UnaryOp act -> y ; then c2 (1x1) -> z when packedY
 */
std::vector<uint8_t> residualModel(const ResidualCase& t, bool fused) {
    ModelBuilder mb;
    mb.input("x", {t.n, t.c, t.h, t.w});
    if (t.scale) {
        mb.input("s", {t.n, t.m, 1, 1});
    }
    addConv(mb, "c0", "x", "t", t.c, t.c, 1, 1, 1, 0, 1, 51);
    addConv(mb, "c1", "t", "u", t.c, t.m, 1, 1, 1, 0, 1, 53, Act::RELU);
    const std::string r = t.packedR ? "t" : "x";
    mb.constant("w", {t.c, t.m, t.k, t.k}, randomFloats((size_t)t.c * t.m * t.k * t.k, 55, -0.3f, 0.3f));
    mb.constant("b", {t.c}, randomFloats((size_t)t.c, 56));
    Schema::ConvParamT p = convParam(t.k);
    const std::string y = t.packedY ? "y" : "z";
    if (fused) {
        p.activation = t.act;
        mb.op(Schema::OpType::Convolution, "sc", {"u", "w", "b", t.scale ? "s" : "", r}, {y})->param.Set(p);
    } else {
        p.activation = Act::NONE;
        std::string in = "u";
        if (t.scale) {
            Schema::BinaryParamT bp;
            bp.type = Schema::BinaryOpType::MUL;
            mb.op(Schema::OpType::BinaryOp, "mul", {"u", "s"}, {"us"})->param.Set(bp);
            in = "us";
        }
        mb.op(Schema::OpType::Convolution, "sc", {in, "w", "b"}, {"v"})->param.Set(p);
        Schema::BinaryParamT add;
        add.type = Schema::BinaryOpType::ADD;
        mb.op(Schema::OpType::BinaryOp, "add", {"v", r}, {t.act == Act::NONE ? y : "a"})->param.Set(add);
        if (t.act != Act::NONE) {
            Schema::UnaryParamT up;
            up.type = unaryFor(t.act);
            mb.op(Schema::OpType::UnaryOp, "act", {"a"}, {y})->param.Set(up);
        }
    }
    if (t.packedY) {
        addConv(mb, "c2", "y", "z", t.c, 5, 1, 1, 1, 0, 1, 57);
    }
    mb.output("z");
    return mb.finish();
}

std::string residualName(const ResidualCase& t) {
    return "n" + std::to_string(t.n) + " c" + std::to_string(t.c) + " m" + std::to_string(t.m) + " " +
           std::to_string(t.h) + "x" + std::to_string(t.w) + " k" + std::to_string(t.k) + " act " +
           std::to_string((int)t.act) + (t.scale ? " S" : "") + (t.packedR ? " packed R" : " plain R") +
           (t.packedY ? " packed Y" : " plain Y");
}

const std::vector<ResidualCase>& residualCases() {
    static const std::vector<ResidualCase> c = {
        {1, 24, 96, 14, 14, 1, Act::NONE, false, true, true, "packed-residual"},       // mobilenet_v2 projection
        {2, 40, 120, 9, 7, 1, Act::NONE, true, true, true, "packed-scaled-residual"},  // efficientnet: S and R
        {1, 32, 64, 10, 10, 1, Act::RELU, false, true, true, "packed-residual"},       // resnet50: Relu after the Add
        {1, 128, 128, 12, 12, 3, Act::RELU, false, true, true, "packed-winograd"},     // resnet18: Winograd, wrapped
        {1, 17, 35, 8, 9, 1, Act::SILU, false, true, true, "packed-residual"},         // tails, SiLU after the sum
        // resnet50's expanding 1x1 at K >= 512: K in slices (on tiers that slice them), R and the
        // activation with the last one
        {1, 72, 600, 7, 9, 1, Act::RELU, false, true, true, "packed-residual-ksliced"},
        {1, 40, 520, 5, 11, 1, Act::SILU, false, true, true, "packed-residual-ksliced"},
        {2, 8, 24, 6, 6, 1, Act::HARD_SWISH, true, true, false, ""},  // plain Y: wrapper, mixed layouts
        {1, 8, 24, 6, 6, 1, Act::RELU, false, false, true, ""},       // plain R (graph input)
    };
    return c;
}

}  // namespace

TEST(ConvolutionResidual, ReferenceEqualsUnfusedAdd) {
    for (const auto& t : residualCases()) {
        auto x = makeTensor({t.n, t.c, t.h, t.w}, randomFloats((size_t)t.n * t.c * t.h * t.w, 21));
        auto sc = makeTensor({t.n, t.m, 1, 1}, randomFloats((size_t)t.n * t.m, 22, 0.0f, 2.0f));
        std::map<std::string, const Tensor*> feeds = {{"x", x.get()}};
        if (t.scale) {
            feeds["s"] = sc.get();
        }
        auto ref = runWithLayout(residualModel(t, false), feeds, "plain", 1, "reference");
        auto fusedRef = runWithLayout(residualModel(t, true), feeds, "plain", 1, "reference");
        auto fusedFast = runWithLayout(residualModel(t, true), feeds, "plain", 2);
        ASSERT_EQ(ref.code, NO_ERROR) << residualName(t);
        ASSERT_EQ(fusedRef.code, NO_ERROR) << residualName(t);
        ASSERT_EQ(fusedFast.code, NO_ERROR) << residualName(t);
        EXPECT_LT(maxRelativeDiff(fusedRef, ref), 1e-6) << residualName(t);
        EXPECT_LT(maxRelativeDiff(fusedFast, ref), 1e-5) << residualName(t);
    }
}

TEST(ConvolutionResidual, PackedMatchesReferenceOnEveryTier) {
    for (const auto& t : residualCases()) {
        auto x = makeTensor({t.n, t.c, t.h, t.w}, randomFloats((size_t)t.n * t.c * t.h * t.w, 31));
        auto sc = makeTensor({t.n, t.m, 1, 1}, randomFloats((size_t)t.n * t.m, 32, 0.0f, 2.0f));
        std::map<std::string, const Tensor*> feeds = {{"x", x.get()}};
        if (t.scale) {
            feeds["s"] = sc.get();
        }
        auto ref = runWithLayout(residualModel(t, false), feeds, "plain", 1, "reference");
        ASSERT_EQ(ref.code, NO_ERROR) << residualName(t);
        auto model = residualModel(t, true);
        const int best = (int)cpuFeatures().best;
        for (int tier = 0; tier <= best; ++tier) {
            cpuSetTierOverride(tier);
            for (int threads = 1; threads <= 3; ++threads) {
                auto r = runWithLayout(model, feeds, "packed", threads);
                ASSERT_EQ(r.code, NO_ERROR) << residualName(t);
                EXPECT_EQ(r.layouts["u"], "NC16HW16");
                if (t.packedR) {
                    EXPECT_EQ(r.layouts["t"], "NC16HW16") << residualName(t);  // R, a data input
                }
                const std::string algo = r.algorithms["sc"];
                // K in slices only on tiers that slice 1x1 layers (pcKSlices); elsewhere whole, but
                // at two threads the K split may slice it (KSplitJob): either name there
                std::string want = t.algo;
                const size_t ks = want.find("-ksliced");
                if (ks != std::string::npos && !cpuCoreFunctionsFor((CPUTier)tier).pcKSlices) {
                    want = want.substr(0, ks) + (threads == 2 ? "" : " ");
                }
                EXPECT_EQ(algo.rfind(want, 0), 0u) << residualName(t) << ": " << algo;
                EXPECT_LT(maxRelativeDiff(r, ref), 1e-5)
                    << residualName(t) << " tier " << tier << " threads " << threads << " " << algo;
            }
        }
        cpuSetTierOverride(-1);
    }
}

TEST(ConvolutionResidual, ResidualsThatDoNotFitAreRefused) {
    for (const auto& rDims : std::vector<std::vector<int>>{{1, 8, 6, 5}, {1, 4, 6, 6}, {2, 8, 6, 6}, {1, 8, 36}}) {
        ModelBuilder mb;
        mb.input("x", {1, 8, 6, 6});
        mb.input("r", rDims);
        mb.constant("w", {8, 8, 1, 1}, randomFloats(64, 1));
        mb.op(Schema::OpType::Convolution, "sc", {"x", "w", "", "", "r"}, {"y"})->param.Set(convParam(1));
        mb.output("y");
        size_t count = 1;
        for (int d : rDims) {
            count *= (size_t)d;
        }
        auto x = makeTensor({1, 8, 6, 6}, randomFloats(288, 3));
        auto r = makeTensor(rDims, randomFloats(count, 4));
        for (const char* layout : {"plain", "packed"}) {
            auto run = runWithLayout(mb.finish(), {{"x", x.get()}, {"r", r.get()}}, layout, 1);
            EXPECT_NE(run.code, NO_ERROR) << layout << " R dims " << rDims.size();
        }
    }
}
