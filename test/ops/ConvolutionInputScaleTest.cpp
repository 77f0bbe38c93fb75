// Convolution with a fourth input S (conv(X * S), a squeeze-excite Mul folded in by the converter)
// against the unfused graph (BinaryOp MUL with a [N or 1, C, 1, 1] operand, then the convolution)
// run by the reference kernels: the packed kernel scaling its weights per image (CPUConvolutionPacked,
// "-scaled"), the wrapper that scales X into scratch (other algorithms, plain layout), on every ISA
// tier at 1-3 threads, with S a graph input or an op's output; S shapes that do not fit X are refused.
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
        {1, 40, 24, 14, 14, 1, 1, true},    // squeeze-excite projection: 24 weights per channel < 196 positions
        {2, 24, 200, 8, 8, 1, 2, false},    // more weights than positions: X scaled, per image
        {2, 16, 8, 10, 10, 3, 2, true},     // 3x3: 72 weights per channel <= 100 positions, per image
        {1, 32, 32, 12, 12, 3, 1, false},   // 3x3 wider than the plane: X scaled (Winograd or direct)
        {2, 3, 8, 16, 16, 1, 1, true},      // 3 channels: a plain X runs NHWC; one S for both images
        {3, 35, 17, 9, 7, 1, 3, true},      // channel and output tails
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
