// Normalisations: hand-computed goldens, randomized comparison with formulas written here (variance as
// E[x^2] - E[x]^2, unlike the kernels' two-pass form), zero-size batch and invalid shapes.
#include <math.h>
#include "NNTestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

static Schema::NormParamT normParam(float eps, int axis = -1, int groups = 1) {
    Schema::NormParamT p;
    p.epsilon = eps;
    p.axis = axis;
    p.numGroups = groups;
    return p;
}

static Operand in(const std::string& name, std::vector<int> dims, std::vector<float> data) {
    return Operand{name, dims, data, false};
}
static Operand cst(const std::string& name, std::vector<int> dims, std::vector<float> data) {
    return Operand{name, dims, data, true};
}

TEST(BatchNorm, Golden) {
    auto p = normParam(0.0f);
    auto r = runSingleOp(Schema::OpType::BatchNorm,
                         {in("x", {1, 2, 1, 2}, {1, 2, 3, 4}), cst("s", {2}, {1, 2}), cst("b", {2}, {0, 1}),
                          cst("m", {2}, {1, 3}), cst("v", {2}, {4, 1})},
                         {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0, 0.5f, 1, 3}));
}

TEST(BatchNorm, RandomizedAndEpsilon) {
    auto p = normParam(1e-2f);
    const int n = 2, c = 3, hw = 5;
    auto x = randomFloats(n * c * hw, 1);
    auto s = randomFloats(c, 2), b = randomFloats(c, 3), m = randomFloats(c, 4), v = randomFloats(c, 5, 0.1f, 2.0f);
    std::vector<float> expect(x.size());
    for (int i = 0; i < n * c * hw; ++i) {
        int ch = (i / hw) % c;
        expect[i] = s[ch] * (x[i] - m[ch]) / sqrtf(v[ch] + 1e-2f) + b[ch];
    }
    auto r = runSingleOp(Schema::OpType::BatchNorm,
                         {in("x", {n, c, hw}, x), cst("s", {c}, s), cst("b", {c}, b), cst("m", {c}, m), cst("v", {c}, v)},
                         {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect));
}

TEST(BatchNorm, InvalidAndZeroBatch) {
    auto p = normParam(1e-5f);
    expectCreateFails(singleOpModel(Schema::OpType::BatchNorm,
                                    {in("x", {1, 2, 3}, {}), cst("s", {3}, {1, 1, 1}), cst("b", {2}, {0, 0}),
                                     cst("m", {2}, {0, 0}), cst("v", {2}, {1, 1})},
                                    {"y"}, &p),
                      {"op", "BatchNorm", "scale has shape 3"});
    expectCreateFails(singleOpModel(Schema::OpType::BatchNorm,
                                    {in("x", {1, 2}, {}), cst("s", {2}, {1, 1}), cst("b", {2}, {0, 0}),
                                     cst("m", {2}, {0, 0})},
                                    {"y"}, &p),
                      {"op", "BatchNorm", "required input 4"});
    auto r = runSingleOp(Schema::OpType::BatchNorm,
                         {in("x", {0, 2, 3}, {}), cst("s", {2}, {1, 1}), cst("b", {2}, {0, 0}), cst("m", {2}, {0, 0}),
                          cst("v", {2}, {1, 1})},
                         {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{0, 2, 3}));
}

TEST(InstanceNorm, GoldenAndRandomized) {
    auto p = normParam(0.0f);
    auto r = runSingleOp(Schema::OpType::InstanceNorm,
                         {in("x", {1, 2, 2}, {1, 3, 2, 6}), cst("s", {2}, {1, 2}), cst("b", {2}, {0, 1})}, {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-1, 1, -1, 3}));

    p = normParam(1e-3f);
    const int n = 2, c = 3, hw = 12;
    auto x = randomFloats(n * c * hw, 7), s = randomFloats(c, 8), b = randomFloats(c, 9);
    std::vector<float> expect(x.size());
    for (int plane = 0; plane < n * c; ++plane) {
        double sum = 0, sq = 0;
        for (int i = 0; i < hw; ++i) {
            sum += x[plane * hw + i];
            sq += (double)x[plane * hw + i] * x[plane * hw + i];
        }
        double mean = sum / hw, var = sq / hw - mean * mean;
        for (int i = 0; i < hw; ++i) {
            expect[plane * hw + i] = (float)(s[plane % c] * (x[plane * hw + i] - mean) / sqrt(var + 1e-3) + b[plane % c]);
        }
    }
    r = runSingleOp(Schema::OpType::InstanceNorm, {in("x", {n, c, 3, 4}, x), cst("s", {c}, s), cst("b", {c}, b)},
                    {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect, 1e-5f, 1e-4f));

    expectCreateFails(singleOpModel(Schema::OpType::InstanceNorm,
                                    {in("x", {1, 2, 2}, {}), cst("s", {3}, {1, 1, 1}), cst("b", {2}, {0, 0})}, {"y"}, &p),
                      {"op", "InstanceNorm", "scale has shape 3"});
}

TEST(LayerNorm, GoldenWithStatistics) {
    auto p = normParam(0.0f, -1);
    auto r = runSingleOp(Schema::OpType::LayerNorm,
                         {in("x", {2, 2}, {1, 3, 0, 4}), cst("s", {2}, {2, 3}), cst("b", {2}, {1, 0})},
                         {"y", "mean", "inv"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-1, 3, -1, 3}));
    EXPECT_EQ(r.outputs["mean"]->shape(), (std::vector<int>{2, 1}));
    EXPECT_TRUE(tensorClose(r.outputs["mean"].get(), {2, 2}));
    EXPECT_TRUE(tensorClose(r.outputs["inv"].get(), {1, 0.5f}));
    // no scale, no bias
    r = runSingleOp(Schema::OpType::LayerNorm, {in("x", {2, 2}, {1, 3, 0, 4})}, {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-1, 1, -1, 1}));
}

TEST(LayerNorm, RandomizedAxisAndBroadcastScale) {
    const std::vector<int> dims = {2, 3, 4, 5};
    auto x = randomFloats(120, 11);
    for (int axis : {1, 2, -1}) {
        SCOPED_TRACE(axis);
        auto p = normParam(1e-5f, axis);
        int a = axis < 0 ? axis + 4 : axis;
        int outer = 1, inner = 1;
        for (int d = 0; d < 4; ++d) {
            (d < a ? outer : inner) *= dims[d];
        }
        // scale over the last normalised dim only (broadcast), bias over the whole normalised shape
        std::vector<int> biasDims(dims.begin() + a, dims.end());
        auto s = randomFloats(5, 12);
        auto b = randomFloats(inner, 13);
        std::vector<float> expect(x.size()), mean(outer), inv(outer);
        for (int o = 0; o < outer; ++o) {
            double sum = 0, sq = 0;
            for (int i = 0; i < inner; ++i) {
                sum += x[o * inner + i];
                sq += (double)x[o * inner + i] * x[o * inner + i];
            }
            double mu = sum / inner, var = sq / inner - mu * mu;
            mean[o] = (float)mu;
            inv[o] = (float)(1.0 / sqrt(var + 1e-5));
            for (int i = 0; i < inner; ++i) {
                expect[o * inner + i] = (float)((x[o * inner + i] - mu) / sqrt(var + 1e-5) * s[i % 5] + b[i]);
            }
        }
        auto r = runSingleOp(Schema::OpType::LayerNorm,
                             {in("x", dims, x), cst("s", {5}, s), cst("b", biasDims, b)}, {"y", "mean", "inv"}, &p);
        ASSERT_EQ(r.code, NO_ERROR);
        EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect, 1e-5f, 1e-4f));
        EXPECT_TRUE(tensorClose(r.outputs["mean"].get(), mean, 1e-6f, 1e-4f));
        EXPECT_TRUE(tensorClose(r.outputs["inv"].get(), inv, 1e-5f, 1e-4f));
    }
}

TEST(LayerNorm, InvalidAndZeroSize) {
    auto p = normParam(1e-5f, 2);
    expectCreateFails(singleOpModel(Schema::OpType::LayerNorm, {in("x", {2, 3}, {})}, {"y"}, &p),
                      {"op", "LayerNorm", "axis 2"});
    p.axis = -1;
    expectCreateFails(singleOpModel(Schema::OpType::LayerNorm, {in("x", {2, 3}, {}), cst("s", {2}, {1, 1})}, {"y"}, &p),
                      {"op", "Scale has shape 2"});
    auto r = runSingleOp(Schema::OpType::LayerNorm, {in("x", {0, 3}, {}), cst("s", {3}, {1, 1, 1})}, {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{0, 3}));
}

TEST(RMSNorm, GoldenAndRandomized) {
    auto p = normParam(0.0f, -1);
    auto r = runSingleOp(Schema::OpType::RMSNorm, {in("x", {1, 2}, {1, 7}), cst("s", {2}, {2, 1})}, {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0.4f, 1.4f}));

    p = normParam(1e-6f, 1);
    auto x = randomFloats(2 * 3 * 4, 21), s = randomFloats(12, 22);
    std::vector<float> expect(x.size());
    for (int o = 0; o < 2; ++o) {
        double sq = 0;
        for (int i = 0; i < 12; ++i) {
            sq += (double)x[o * 12 + i] * x[o * 12 + i];
        }
        double rms = sqrt(sq / 12 + 1e-6);
        for (int i = 0; i < 12; ++i) {
            expect[o * 12 + i] = (float)(x[o * 12 + i] / rms * s[i]);
        }
    }
    r = runSingleOp(Schema::OpType::RMSNorm, {in("x", {2, 3, 4}, x), cst("s", {3, 4}, s)}, {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect));
    expectCreateFails(singleOpModel(Schema::OpType::RMSNorm, {in("x", {2, 3, 4}, {}), cst("s", {4, 3}, s)}, {"y"}, &p),
                      {"op", "RMSNorm", "Scale"});
}

TEST(GroupNorm, GoldenPerChannelAndPerGroupScale) {
    auto p = normParam(0.0f, -1, 2);
    auto r = runSingleOp(Schema::OpType::GroupNorm,
                         {in("x", {1, 4, 1}, {1, 3, 10, 14}), cst("s", {4}, {1, 2, 3, 4}), cst("b", {4}, {0, 0, 0, 1})},
                         {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-1, 2, -3, 5}));
    r = runSingleOp(Schema::OpType::GroupNorm,
                    {in("x", {1, 4, 1}, {1, 3, 10, 14}), cst("s", {2}, {2, 3}), cst("b", {2}, {0, 0})}, {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-2, 2, -3, 3}));
}

TEST(GroupNorm, RandomizedAndInvalid) {
    const int n = 2, c = 6, g = 3, hw = 4;
    auto p = normParam(1e-4f, -1, g);
    auto x = randomFloats(n * c * hw, 31), s = randomFloats(c, 32), b = randomFloats(c, 33);
    std::vector<float> expect(x.size());
    const int block = c / g * hw;
    for (int k = 0; k < n * g; ++k) {
        double sum = 0, sq = 0;
        for (int i = 0; i < block; ++i) {
            sum += x[k * block + i];
            sq += (double)x[k * block + i] * x[k * block + i];
        }
        double mu = sum / block, var = sq / block - mu * mu;
        for (int i = 0; i < block; ++i) {
            int ch = (k % g) * (c / g) + i / hw;
            expect[k * block + i] = (float)((x[k * block + i] - mu) / sqrt(var + 1e-4) * s[ch] + b[ch]);
        }
    }
    auto r = runSingleOp(Schema::OpType::GroupNorm, {in("x", {n, c, 2, 2}, x), cst("s", {c}, s), cst("b", {c}, b)},
                         {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect, 1e-5f, 1e-4f));
    p.numGroups = 4;
    expectCreateFails(singleOpModel(Schema::OpType::GroupNorm, {in("x", {1, 6, 2}, {}), cst("s", {6}, s), cst("b", {6}, b)},
                                    {"y"}, &p),
                      {"op", "GroupNorm", "num_groups 4"});
    p.numGroups = 3;
    expectCreateFails(singleOpModel(Schema::OpType::GroupNorm,
                                    {in("x", {1, 6, 2}, {}), cst("s", {5}, {1, 1, 1, 1, 1}), cst("b", {6}, b)}, {"y"}, &p),
                      {"op", "GroupNorm", "scale has shape 5"});
}

TEST(LRN, Golden) {
    Schema::LrnParamT p;
    p.size = 3;
    p.alpha = 3.0f; // alpha / size = 1
    p.beta = 1.0f;
    p.bias = 1.0f;
    auto r = runSingleOp(Schema::OpType::LRN, {in("x", {1, 3, 1, 1}, {1, 2, 3})}, {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1.0f / 6, 2.0f / 15, 3.0f / 14}));
    // even size: window [c, c + 1]
    p.size = 2;
    p.alpha = 2.0f;
    r = runSingleOp(Schema::OpType::LRN, {in("x", {1, 3, 1, 1}, {1, 2, 3})}, {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1.0f / 6, 2.0f / 14, 3.0f / 10}));
    // beta 0.75 over spatial positions: each position independent
    p.size = 1;
    p.alpha = 1.0f;
    p.beta = 0.5f;
    p.bias = 0.0f;
    r = runSingleOp(Schema::OpType::LRN, {in("x", {1, 1, 1, 2}, {2, -3})}, {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1, -1}));
    p.size = 0;
    expectCreateFails(singleOpModel(Schema::OpType::LRN, {in("x", {1, 3, 1, 1}, {})}, {"y"}, &p),
                      {"op", "LRN", "size 0"});
}

TEST(LpNormalization, Golden) {
    Schema::NormParamT p;
    p.axis = -1;
    p.p = 2;
    auto r = runSingleOp(Schema::OpType::LpNormalization, {in("x", {2, 2}, {3, 4, 0, 0})}, {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0.6f, 0.8f, 0, 0}));
    p.p = 1;
    r = runSingleOp(Schema::OpType::LpNormalization, {in("x", {2, 2}, {3, -4, 0, 0})}, {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {3.0f / 7, -4.0f / 7, 0, 0}));
    p.p = 2;
    p.axis = 0;
    r = runSingleOp(Schema::OpType::LpNormalization, {in("x", {2, 2}, {3, 4, 4, 3})}, {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0.6f, 0.8f, 0.8f, 0.6f}));
    p.p = 3;
    expectCreateFails(singleOpModel(Schema::OpType::LpNormalization, {in("x", {2, 2}, {})}, {"y"}, &p),
                      {"op", "LpNormalization", "p 3"});
    p.p = 2;
    p.axis = 2;
    expectCreateFails(singleOpModel(Schema::OpType::LpNormalization, {in("x", {2, 2}, {})}, {"y"}, &p),
                      {"op", "LpNormalization", "axis 2"});
}

TEST(MeanVarianceNormalization, GoldenDefaultAxesAndCustomAxes) {
    Schema::NormParamT p; // axes default [0, 2, 3]
    auto r = runSingleOp(Schema::OpType::MeanVarianceNormalization, {in("x", {1, 2, 1, 2}, {0, 2, 5, 5})}, {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-1, 1, 0, 0}));
    // reduction over the batch too: [0, 2] and [4, 6] share mean 3, variance 5
    r = runSingleOp(Schema::OpType::MeanVarianceNormalization, {in("x", {2, 1, 1, 2}, {0, 2, 4, 6})}, {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    float s5 = sqrtf(5.0f);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-3 / s5, -1 / s5, 1 / s5, 3 / s5}));
    p.axes = {-1};
    r = runSingleOp(Schema::OpType::MeanVarianceNormalization, {in("x", {2, 2}, {1, 3, 10, 20})}, {"y"}, &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-1, 1, -1, 1}));
    p.axes = {0, 5};
    expectCreateFails(singleOpModel(Schema::OpType::MeanVarianceNormalization, {in("x", {2, 2}, {})}, {"y"}, &p),
                      {"op", "MeanVarianceNormalization", "axis 5"});
}
