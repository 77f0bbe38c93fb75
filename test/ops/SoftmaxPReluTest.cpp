// Softmax / LogSoftmax / Hardmax and PRelu: goldens, randomized comparison with formulas written here,
// zero-size shapes and invalid attributes.
#include <math.h>
#include "NNTestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

static Schema::SoftmaxParamT softmax(int axis, Schema::SoftmaxMode mode = Schema::SoftmaxMode::SOFTMAX,
                                     bool coerce = false) {
    Schema::SoftmaxParamT p;
    p.axis = axis;
    p.mode = mode;
    p.coerce2D = coerce;
    return p;
}

static RunResult runSoftmax(const std::vector<int>& dims, const std::vector<float>& x, const Schema::SoftmaxParamT& p) {
    return runSingleOp(Schema::OpType::Softmax, {Operand{"x", dims, x, false}}, {"y"}, &p);
}

TEST(Softmax, GoldenModes) {
    const float l3 = logf(3.0f);
    auto r = runSoftmax({2}, {0, l3}, softmax(-1));
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0.25f, 0.75f}));
    r = runSoftmax({2}, {0, l3}, softmax(-1, Schema::SoftmaxMode::LOG_SOFTMAX));
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {logf(0.25f), logf(0.75f)}));
    r = runSoftmax({2, 4}, {1, 3, 3, 2, -5, -1, -7, -2}, softmax(1, Schema::SoftmaxMode::HARDMAX));
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0, 1, 0, 0, 0, 1, 0, 0}));
    // axis 0 of a 2x3 matrix: columns
    r = runSoftmax({2, 3}, {0, 1, 2, l3, 1, 2 + l3}, softmax(0));
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0.25f, 0.5f, 0.25f, 0.75f, 0.5f, 0.75f}));
    // large inputs stay finite
    r = runSoftmax({2}, {1000, 1000}, softmax(0));
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0.5f, 0.5f}));
}

TEST(Softmax, RandomizedAxesAndCoerce2D) {
    const std::vector<int> dims = {2, 3, 4};
    auto x = randomFloats(24, 5, -3.0f, 3.0f);
    for (int axis = -3; axis < 3; ++axis) {
        for (bool coerce : {false, true}) {
            for (auto mode : {Schema::SoftmaxMode::SOFTMAX, Schema::SoftmaxMode::LOG_SOFTMAX}) {
                SCOPED_TRACE(::testing::Message() << "axis " << axis << " coerce " << coerce << " mode " << (int)mode);
                const int a = axis < 0 ? axis + 3 : axis;
                // reduced positions: same index outside the reduced dims
                std::vector<float> expect(24);
                for (int i = 0; i < 24; ++i) {
                    int idx[3] = {i / 12, (i / 4) % 3, i % 4};
                    double sum = 0;
                    for (int j = 0; j < 24; ++j) {
                        int jdx[3] = {j / 12, (j / 4) % 3, j % 4};
                        bool same = true;
                        for (int d = 0; d < 3; ++d) {
                            bool reduced = coerce ? d >= a : d == a;
                            if (!reduced && idx[d] != jdx[d]) {
                                same = false;
                            }
                        }
                        if (same) {
                            sum += exp((double)x[j]);
                        }
                    }
                    expect[i] = mode == Schema::SoftmaxMode::SOFTMAX ? (float)(exp((double)x[i]) / sum)
                                                                     : (float)(x[i] - log(sum));
                }
                auto r = runSoftmax(dims, x, softmax(axis, mode, coerce));
                ASSERT_EQ(r.code, NO_ERROR);
                EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect, 1e-6f, 1e-5f));
            }
        }
    }
}

TEST(Softmax, ZeroSizeAndInvalid) {
    auto r = runSoftmax({0, 3}, {}, softmax(-1));
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{0, 3}));
    r = runSoftmax({3, 0}, {}, softmax(-1));
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{3, 0}));
    auto p = softmax(2);
    expectCreateFails(singleOpModel(Schema::OpType::Softmax, {Operand{"x", {2, 3}, {}, false}}, {"y"}, &p),
                      {"op", "Softmax", "axis 2"});
}

TEST(PRelu, GoldenBroadcast) {
    Schema::NormParamT* none = nullptr;
    auto r = runSingleOp(Schema::OpType::PRelu,
                         {Operand{"x", {5}, {-2, -1, 0, 1, 2}, false}, Operand{"s", {1}, {0.5f}, true}}, {"y"}, none);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-1, -0.5f, 0, 1, 2}));
    // slope per column ([3]) and per row ([2, 1])
    std::vector<float> x = {-1, -2, -3, 4, -5, 6};
    r = runSingleOp(Schema::OpType::PRelu, {Operand{"x", {2, 3}, x, false}, Operand{"s", {3}, {1, 2, 3}, true}}, {"y"},
                    none);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-1, -4, -9, 4, -10, 6}));
    r = runSingleOp(Schema::OpType::PRelu, {Operand{"x", {2, 3}, x, false}, Operand{"s", {2, 1}, {0, 10}, true}}, {"y"},
                    none);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0, 0, 0, 4, -50, 6}));
}

TEST(PRelu, RandomizedChannelSlopeInt32AndInvalid) {
    Schema::NormParamT* none = nullptr;
    auto x = randomFloats(2 * 3 * 4 * 5, 9);
    auto s = randomFloats(3, 10, 0.0f, 1.0f);
    std::vector<float> expect(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        int c = (int)(i / 20) % 3;
        expect[i] = x[i] >= 0 ? x[i] : s[c] * x[i];
    }
    auto r = runSingleOp(Schema::OpType::PRelu,
                         {Operand{"x", {2, 3, 4, 5}, x, false}, Operand{"s", {3, 1, 1}, s, true}}, {"y"}, none);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect));

    ModelBuilder mb;
    mb.input("x", {3}, Schema::DataType::DT_INT32);
    mb.constantInt32("s", {1}, {3});
    mb.op(Schema::OpType::PRelu, "prelu", {"x", "s"}, {"y"});
    mb.output("y");
    std::unique_ptr<Tensor> xi(Tensor::create<int32_t>({3}, nullptr, Tensor::CAFFE));
    xi->host<int32_t>()[0] = -2;
    xi->host<int32_t>()[1] = 0;
    xi->host<int32_t>()[2] = 5;
    auto ri = runModel(mb.finish(), {{"x", xi.get()}});
    ASSERT_EQ(ri.code, NO_ERROR);
    EXPECT_EQ(ri.outputs["y"]->host<int32_t>()[0], -6);
    EXPECT_EQ(ri.outputs["y"]->host<int32_t>()[1], 0);
    EXPECT_EQ(ri.outputs["y"]->host<int32_t>()[2], 5);

    // slope [4] does not broadcast to [2, 3]; slope [2, 2, 3] would enlarge X
    expectCreateFails(singleOpModel(Schema::OpType::PRelu,
                                    {Operand{"x", {2, 3}, {}, false}, Operand{"s", {4}, {1, 1, 1, 1}, true}}, {"y"}, none),
                      {"op", "PRelu", "slope 4"});
    expectCreateFails(singleOpModel(Schema::OpType::PRelu,
                                    {Operand{"x", {2, 3}, {}, false},
                                     Operand{"s", {2, 2, 3}, std::vector<float>(12, 1.0f), true}},
                                    {"y"}, none),
                      {"op", "PRelu", "does not broadcast"});
}
