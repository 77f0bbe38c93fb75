// Convolution: hand-computed goldens, randomized comparison with plain nested loops written here
// (1-D, 2-D, 3-D; stride, dilation, asymmetric pads, auto_pad, groups, bias, fused activation),
// zero-size batch, FLOPs, and invalid shapes failing at createSession.
#include <math.h>
#include <algorithm>
#include "NNTestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

static std::vector<uint8_t> convModel(const std::vector<int>& xDims, const std::vector<int>& wDims,
                                      const std::vector<float>& w, const std::vector<float>* bias,
                                      const Schema::ConvParamT& param, bool transpose = false) {
    ModelBuilder mb;
    mb.input("x", xDims);
    mb.constant("w", wDims, w);
    if (bias) {
        mb.constant("b", {(int)bias->size()}, *bias);
    }
    auto op = mb.op(transpose ? Schema::OpType::ConvTranspose : Schema::OpType::Convolution, "conv",
                    {"x", "w", bias ? "b" : ""}, {"y"});
    Schema::ConvParamT copy = param;
    op->param.Set(copy);
    mb.output("y");
    return mb.finish();
}

static RunResult runConv(const std::vector<int>& xDims, const std::vector<float>& x, const std::vector<int>& wDims,
                         const std::vector<float>& w, const std::vector<float>* bias, const Schema::ConvParamT& p) {
    auto model = convModel(xDims, wDims, w, bias, p);
    auto xt = makeTensor(xDims, x);
    return runModel(model, {{"x", xt.get()}});
}

static std::vector<float> iota(int n, float start = 0.0f) {
    std::vector<float> v(n);
    for (int i = 0; i < n; ++i) {
        v[i] = start + (float)i;
    }
    return v;
}

TEST(Convolution, GoldenDiagonalKernelWithBias) {
    Schema::ConvParamT p;
    std::vector<float> b = {1.0f};
    // X = 1..9 (3x3), W = [[1,0],[0,1]]: y = x[i][j] + x[i+1][j+1] + 1
    auto r = runConv({1, 1, 3, 3}, iota(9, 1), {1, 1, 2, 2}, {1, 0, 0, 1}, &b, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 1, 2, 2}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {7, 9, 13, 15}));
}

TEST(Convolution, GoldenPaddedOnes) {
    Schema::ConvParamT p;
    p.pads = {1, 1, 1, 1};
    p.kernel = {3, 3};
    auto r = runConv({1, 1, 3, 3}, std::vector<float>(9, 1.0f), {1, 1, 3, 3}, std::vector<float>(9, 1.0f), nullptr, p);
    ASSERT_EQ(r.code, NO_ERROR);
    // each output counts the input cells its 3x3 window covers
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {4, 6, 4, 6, 9, 6, 4, 6, 4}));
}

// ONNX's conv_with_strides_and_asymmetric_padding / _padding cases (X = 0..34 as 7x5, W = ones 3x3).
TEST(Convolution, GoldenStrideTwoAsymmetricPads) {
    Schema::ConvParamT p;
    p.strides = {2, 2};
    p.pads = {1, 0, 1, 0};
    auto r = runConv({1, 1, 7, 5}, iota(35), {1, 1, 3, 3}, std::vector<float>(9, 1.0f), nullptr, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 1, 4, 2}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {21, 33, 99, 117, 189, 207, 171, 183}));
    p.pads = {1, 1, 1, 1};
    r = runConv({1, 1, 7, 5}, iota(35), {1, 1, 3, 3}, std::vector<float>(9, 1.0f), nullptr, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {12, 27, 24, 63, 108, 81, 123, 198, 141, 112, 177, 124}));
}

TEST(Convolution, GoldenDilation) {
    Schema::ConvParamT p;
    p.dilations = {2, 2};
    // 2x2 kernel of ones dilated by 2 on 0..15 (4x4): corners of each 3x3 patch
    auto r = runConv({1, 1, 4, 4}, iota(16), {1, 1, 2, 2}, {1, 1, 1, 1}, nullptr, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0 + 2 + 8 + 10, 1 + 3 + 9 + 11, 4 + 6 + 12 + 14, 5 + 7 + 13 + 15}));
}

TEST(Convolution, GoldenDepthwiseAndFusedActivations) {
    Schema::ConvParamT p;
    p.group = 2;
    // 1x1 depthwise: channel 0 scaled by 2, channel 1 by -3; bias 1 and -1
    std::vector<float> b = {1.0f, -1.0f};
    std::vector<float> x = {1, -2, 3, 4, 0.5f, -1, 2, 0};
    auto r = runConv({1, 2, 2, 2}, x, {2, 1, 1, 1}, {2, -3}, &b, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {3, -3, 7, 9, -2.5f, 2, -7, -1}));
    p.activation = Schema::FusedActivation::RELU;
    r = runConv({1, 2, 2, 2}, x, {2, 1, 1, 1}, {2, -3}, &b, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {3, 0, 7, 9, 0, 2, 0, 0}));
    p.activation = Schema::FusedActivation::CLIP;
    p.clipMin = -2.0f;
    p.clipMax = 6.0f;
    r = runConv({1, 2, 2, 2}, x, {2, 1, 1, 1}, {2, -3}, &b, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {3, -2, 6, 6, -2, 2, -2, -1}));
}

TEST(Convolution, GoldenAutoPadSame) {
    // 3x3 ones on 0..15 (4x4) stride 2: out 2x2; total pad 1 per dim -> SAME_UPPER pads at the end,
    // SAME_LOWER at the beginning
    Schema::ConvParamT p;
    p.strides = {2, 2};
    p.padMode = Schema::PadMode::SAME_UPPER;
    auto r = runConv({1, 1, 4, 4}, iota(16), {1, 1, 3, 3}, std::vector<float>(9, 1.0f), nullptr, p);
    ASSERT_EQ(r.code, NO_ERROR);
    // windows rows {0,1,2},{2,3} cols likewise
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {45, 39, 66, 50}));
    p.padMode = Schema::PadMode::SAME_LOWER;
    r = runConv({1, 1, 4, 4}, iota(16), {1, 1, 3, 3}, std::vector<float>(9, 1.0f), nullptr, p);
    ASSERT_EQ(r.code, NO_ERROR);
    // windows rows {0,1},{1,2,3}
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {10, 24, 51, 90}));
    p.padMode = Schema::PadMode::VALID;
    p.strides = {1, 1};
    r = runConv({1, 1, 4, 4}, iota(16), {1, 1, 3, 3}, std::vector<float>(9, 1.0f), nullptr, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {45, 54, 81, 90}));
}

// ---- randomized comparison with plain loops ----

struct Conv2DSpec {
    int n, c, h, w, m, kh, kw;
    int sh = 1, sw = 1, dh = 1, dw = 1;
    int pt = 0, pl = 0, pb = 0, pr = 0;
    int group = 1;
    bool bias = false;
    Schema::PadMode mode = Schema::PadMode::EXPLICIT;
};

// pads for auto_pad written from the ONNX text: out = ceil(in / stride), total = (out-1)*s + (k-1)*d + 1 - in
static void autoPads(Schema::PadMode mode, int in, int k, int s, int d, int* before, int* after) {
    if (mode == Schema::PadMode::VALID) {
        *before = *after = 0;
        return;
    }
    int out = (in + s - 1) / s;
    int total = std::max(0, (out - 1) * s + (k - 1) * d + 1 - in);
    int small = total / 2;
    if (mode == Schema::PadMode::SAME_UPPER) {
        *before = small;
        *after = total - small;
    } else {
        *after = small;
        *before = total - small;
    }
}

static std::vector<float> naiveConv2D(Conv2DSpec s, const std::vector<float>& x, const std::vector<float>& w,
                                      const std::vector<float>& b, int* outH, int* outW) {
    if (s.mode != Schema::PadMode::EXPLICIT) {
        autoPads(s.mode, s.h, s.kh, s.sh, s.dh, &s.pt, &s.pb);
        autoPads(s.mode, s.w, s.kw, s.sw, s.dw, &s.pl, &s.pr);
    }
    const int oh = (s.h + s.pt + s.pb - (s.kh - 1) * s.dh - 1) / s.sh + 1;
    const int ow = (s.w + s.pl + s.pr - (s.kw - 1) * s.dw - 1) / s.sw + 1;
    const int cg = s.c / s.group, mg = s.m / s.group;
    std::vector<float> y((size_t)s.n * s.m * oh * ow);
    for (int n = 0; n < s.n; ++n)
        for (int m = 0; m < s.m; ++m)
            for (int i = 0; i < oh; ++i)
                for (int j = 0; j < ow; ++j) {
                    double acc = s.bias ? b[m] : 0.0;
                    for (int ci = 0; ci < cg; ++ci)
                        for (int ki = 0; ki < s.kh; ++ki)
                            for (int kj = 0; kj < s.kw; ++kj) {
                                int c = (m / mg) * cg + ci;
                                int hi = i * s.sh - s.pt + ki * s.dh;
                                int wj = j * s.sw - s.pl + kj * s.dw;
                                if (hi < 0 || hi >= s.h || wj < 0 || wj >= s.w) {
                                    continue;
                                }
                                acc += (double)x[((n * s.c + c) * s.h + hi) * s.w + wj] *
                                       w[((m * cg + ci) * s.kh + ki) * s.kw + kj];
                            }
                    y[((n * s.m + m) * oh + i) * ow + j] = (float)acc;
                }
    *outH = oh;
    *outW = ow;
    return y;
}

static void checkConv2D(const Conv2DSpec& s, unsigned seed) {
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " n" << s.n << " c" << s.c << " " << s.h << "x" << s.w
                                      << " m" << s.m << " k" << s.kh << "x" << s.kw << " group " << s.group
                                      << " mode " << (int)s.mode);
    auto x = randomFloats((size_t)s.n * s.c * s.h * s.w, seed);
    auto w = randomFloats((size_t)s.m * (s.c / s.group) * s.kh * s.kw, seed + 1);
    auto b = randomFloats(s.m, seed + 2);
    int oh = 0, ow = 0;
    auto expect = naiveConv2D(s, x, w, b, &oh, &ow);
    Schema::ConvParamT p;
    p.strides = {s.sh, s.sw};
    p.dilations = {s.dh, s.dw};
    p.pads = {s.pt, s.pl, s.pb, s.pr};
    p.group = s.group;
    p.padMode = s.mode;
    auto r = runConv({s.n, s.c, s.h, s.w}, x, {s.m, s.c / s.group, s.kh, s.kw}, w, s.bias ? &b : nullptr, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{s.n, s.m, oh, ow}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect, 1e-5f, 1e-5f));
}

TEST(Convolution, RandomizedAgainstNestedLoops2D) {
    std::vector<Conv2DSpec> specs;
    {
        Conv2DSpec s{1, 3, 8, 7, 4, 3, 3};
        specs.push_back(s);
        s.bias = true;
        s.sh = 2;
        s.sw = 2;
        specs.push_back(s);
        s.pt = 1;
        s.pl = 0;
        s.pb = 2;
        s.pr = 1;
        specs.push_back(s);
        s.dh = 2;
        s.dw = 3;
        specs.push_back(s);
    }
    {
        Conv2DSpec s{2, 4, 9, 6, 6, 3, 2};
        s.group = 2;
        s.bias = true;
        s.pt = 1;
        s.pb = 1;
        specs.push_back(s);
        s.sh = 2;
        s.dw = 2;
        specs.push_back(s);
    }
    {
        Conv2DSpec s{2, 6, 7, 7, 6, 3, 3};
        s.group = 6; // depthwise
        s.bias = true;
        s.pt = s.pl = s.pb = s.pr = 1;
        specs.push_back(s);
        s.sh = s.sw = 2;
        specs.push_back(s);
        s.m = 12; // depthwise with multiplier 2
        specs.push_back(s);
    }
    for (auto mode : {Schema::PadMode::SAME_UPPER, Schema::PadMode::SAME_LOWER, Schema::PadMode::VALID}) {
        Conv2DSpec s{1, 2, 7, 8, 3, 4, 3};
        s.mode = mode;
        s.sh = 2;
        s.sw = 3;
        s.dh = 1;
        s.dw = 2;
        s.bias = true;
        specs.push_back(s);
        s.sh = 1;
        s.sw = 1;
        s.kh = 2;
        specs.push_back(s);
    }
    {
        Conv2DSpec s{1, 3, 5, 5, 2, 5, 5}; // kernel as large as the input
        specs.push_back(s);
        Conv2DSpec t{1, 1, 1, 1, 1, 1, 1};
        specs.push_back(t);
    }
    unsigned seed = 10;
    for (auto& s : specs) {
        checkConv2D(s, seed);
        seed += 7;
    }
}

// Plain 3-D convolution (also used for 1-D: D = H = 1).
struct Conv3DSpec {
    int n, c, d, h, w, m, kd, kh, kw;
    int s[3] = {1, 1, 1};
    int dil[3] = {1, 1, 1};
    int padB[3] = {0, 0, 0};
    int padE[3] = {0, 0, 0};
    int group = 1;
};

static std::vector<float> naiveConv3D(const Conv3DSpec& s, const std::vector<float>& x, const std::vector<float>& w,
                                      const std::vector<float>& b, std::vector<int>* outDims) {
    int in[3] = {s.d, s.h, s.w}, k[3] = {s.kd, s.kh, s.kw}, o[3];
    for (int i = 0; i < 3; ++i) {
        o[i] = (in[i] + s.padB[i] + s.padE[i] - (k[i] - 1) * s.dil[i] - 1) / s.s[i] + 1;
    }
    const int cg = s.c / s.group, mg = s.m / s.group;
    std::vector<float> y((size_t)s.n * s.m * o[0] * o[1] * o[2]);
    for (int n = 0; n < s.n; ++n)
        for (int m = 0; m < s.m; ++m)
            for (int a = 0; a < o[0]; ++a)
                for (int bb = 0; bb < o[1]; ++bb)
                    for (int cc = 0; cc < o[2]; ++cc) {
                        double acc = b[m];
                        for (int ci = 0; ci < cg; ++ci)
                            for (int ka = 0; ka < s.kd; ++ka)
                                for (int kb = 0; kb < s.kh; ++kb)
                                    for (int kc = 0; kc < s.kw; ++kc) {
                                        int p0 = a * s.s[0] - s.padB[0] + ka * s.dil[0];
                                        int p1 = bb * s.s[1] - s.padB[1] + kb * s.dil[1];
                                        int p2 = cc * s.s[2] - s.padB[2] + kc * s.dil[2];
                                        if (p0 < 0 || p0 >= s.d || p1 < 0 || p1 >= s.h || p2 < 0 || p2 >= s.w) {
                                            continue;
                                        }
                                        int c = (m / mg) * cg + ci;
                                        acc += (double)x[(((n * s.c + c) * s.d + p0) * s.h + p1) * s.w + p2] *
                                               w[(((m * cg + ci) * s.kd + ka) * s.kh + kb) * s.kw + kc];
                                    }
                        y[(((n * s.m + m) * o[0] + a) * o[1] + bb) * o[2] + cc] = (float)acc;
                    }
    *outDims = {s.n, s.m, o[0], o[1], o[2]};
    return y;
}

TEST(Convolution, RandomizedAgainstNestedLoops3D) {
    Conv3DSpec s{2, 4, 5, 6, 4, 4, 3, 2, 3};
    s.s[0] = 2;
    s.dil[2] = 2;
    s.padB[0] = 1;
    s.padE[1] = 1;
    s.padB[2] = 2;
    s.group = 2;
    auto x = randomFloats((size_t)2 * 4 * 5 * 6 * 4, 3);
    auto w = randomFloats((size_t)4 * 2 * 3 * 2 * 3, 4);
    auto b = randomFloats(4, 5);
    std::vector<int> dims;
    auto expect = naiveConv3D(s, x, w, b, &dims);
    Schema::ConvParamT p;
    p.strides = {2, 1, 1};
    p.dilations = {1, 1, 2};
    p.pads = {1, 0, 2, 0, 1, 0};
    p.group = 2;
    auto r = runConv({2, 4, 5, 6, 4}, x, {4, 2, 3, 2, 3}, w, &b, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), dims);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect, 1e-5f, 1e-5f));
}

TEST(Convolution, RandomizedAgainstNestedLoops1D) {
    // 1-D as the 3-D loops with D = H = 1
    Conv3DSpec s{2, 3, 1, 1, 11, 5, 1, 1, 3};
    s.s[2] = 2;
    s.dil[2] = 2;
    s.padB[2] = 2;
    s.padE[2] = 1;
    auto x = randomFloats((size_t)2 * 3 * 11, 6);
    auto w = randomFloats((size_t)5 * 3 * 3, 7);
    auto b = randomFloats(5, 8);
    std::vector<int> dims;
    auto expect = naiveConv3D(s, x, w, b, &dims);
    Schema::ConvParamT p;
    p.strides = {2};
    p.dilations = {2};
    p.pads = {2, 1};
    auto r = runConv({2, 3, 11}, x, {5, 3, 3}, w, &b, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{2, 5, dims[4]}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect, 1e-5f, 1e-5f));
}

TEST(Convolution, ZeroSizeBatch) {
    Schema::ConvParamT p;
    p.pads = {1, 1, 1, 1};
    auto model = convModel({0, 2, 5, 5}, {3, 2, 3, 3}, randomFloats(54, 1), nullptr, p);
    auto x = makeTensor({0, 2, 5, 5}, {});
    auto r = runModel(model, {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{0, 3, 5, 5}));
}

TEST(Convolution, FlopsCountTwicePerMultiplyAdd) {
    Schema::ConvParamT p;
    p.group = 2;
    // out 1x4x6x6, each output takes C/group (2) * 3*3 multiply-adds
    auto model = convModel({1, 4, 8, 8}, {4, 2, 3, 3}, randomFloats(72, 1), nullptr, p);
    EXPECT_NEAR(sessionMFlops(model), 2.0 * 4 * 36 * 2 * 9 / 1e6, 1e-7);
}

TEST(Convolution, InvalidShapesFailAtCreate) {
    Schema::ConvParamT p;
    // W expects 3 input channels, X has 4
    expectCreateFails(convModel({1, 4, 5, 5}, {2, 3, 3, 3}, randomFloats(54, 1), nullptr, p),
                      {"conv", "Convolution", "4 channels"});
    // group 3 does not divide the 4 output channels
    p.group = 3;
    expectCreateFails(convModel({1, 3, 5, 5}, {4, 1, 3, 3}, randomFloats(36, 1), nullptr, p),
                      {"conv", "not divisible by group 3"});
    p.group = 0;
    expectCreateFails(convModel({1, 3, 5, 5}, {4, 3, 3, 3}, randomFloats(108, 1), nullptr, p), {"conv", "group 0"});
    p.group = 1;
    // bias of the wrong size
    std::vector<float> b(3, 0.0f);
    expectCreateFails(convModel({1, 3, 5, 5}, {4, 3, 3, 3}, randomFloats(108, 1), &b, p), {"conv", "B has shape 3"});
    // kernel larger than the (unpadded) input
    expectCreateFails(convModel({1, 3, 2, 2}, {4, 3, 3, 3}, randomFloats(108, 1), nullptr, p), {"conv", "smaller"});
    // kernel_shape attribute disagreeing with W
    p.kernel = {2, 2};
    expectCreateFails(convModel({1, 3, 5, 5}, {4, 3, 3, 3}, randomFloats(108, 1), nullptr, p), {"conv", "kernel_shape"});
    p.kernel.clear();
    // wrong number of pads, zero stride, rank mismatch
    p.pads = {1, 1};
    expectCreateFails(convModel({1, 3, 5, 5}, {4, 3, 3, 3}, randomFloats(108, 1), nullptr, p), {"conv", "pads"});
    p.pads.clear();
    p.strides = {0, 1};
    expectCreateFails(convModel({1, 3, 5, 5}, {4, 3, 3, 3}, randomFloats(108, 1), nullptr, p), {"conv", "strides"});
    p.strides.clear();
    expectCreateFails(convModel({1, 3, 5, 5}, {4, 3, 3}, randomFloats(36, 1), nullptr, p), {"conv", "W has shape"});
}
