// NegativeLogLikelihoodLoss: hand-computed golden values (reductions, weights, ignore_index incl.
// negative, N-d, int32 / int64 targets, double), bad shapes failing at createSession, and a target
// outside [0, C) failing the run.
#include <math.h>
#include "OpTestHelpers.hpp"

using namespace MNN;
using namespace MNN::Test;
using Schema::DataType;
using Schema::LossReduction;

namespace {
struct LossCase {
    std::vector<int> xDims, tDims;
    LossReduction reduction = LossReduction::MEAN;
    bool weight = false;
    std::vector<int> wDims;
    bool hasIgnore = false;
    int64_t ignore = 0;
    DataType xType = DataType::DT_FLOAT;
    DataType tType = DataType::DT_INT64;
};

std::vector<uint8_t> lossModel(const LossCase& c) {
    ModelBuilder mb;
    mb.input("x", c.xDims, c.xType);
    mb.input("t", c.tDims, c.tType);
    std::vector<std::string> ins = {"x", "t"};
    if (c.weight) {
        mb.input("w", c.wDims, c.xType);
        ins.push_back("w");
    }
    auto op = mb.op(Schema::OpType::NegativeLogLikelihoodLoss, "nll", ins, {"y"});
    Schema::LossParamT p;
    p.reduction = c.reduction;
    p.hasIgnoreIndex = c.hasIgnore;
    p.ignoreIndex = c.ignore;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

RunResult runLoss(const LossCase& c, const std::vector<float>& x, const std::vector<int64_t>& t,
                  const std::vector<float>& w = {}) {
    auto xt = makeTensor(c.xDims, x);
    auto tt = makeTyped<int64_t>(c.tDims, t);
    auto wt = makeTensor(c.wDims, w);
    std::map<std::string, const Tensor*> feeds = {{"x", xt.get()}, {"t", tt.get()}};
    if (c.weight) {
        feeds["w"] = wt.get();
    }
    return runModel(lossModel(c), feeds);
}

// log-probabilities of 2 samples over 3 classes
const std::vector<float> kX = {-1, -2, -3, -0.5f, -1.5f, -2.5f};
}  // namespace

TEST(NegativeLogLikelihoodLoss, Reductions) {
    LossCase c;
    c.xDims = {2, 3};
    c.tDims = {2};
    c.reduction = LossReduction::NONE;
    auto r = runLoss(c, kX, {2, 0});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(shapeOf(r.outputs["y"].get()), (std::vector<int>{2}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {3.0f, 0.5f}));
    c.reduction = LossReduction::SUM;
    r = runLoss(c, kX, {2, 0});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->dimensions(), 0);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {3.5f}));
    c.reduction = LossReduction::MEAN;
    r = runLoss(c, kX, {2, 0});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1.75f}));
}

TEST(NegativeLogLikelihoodLoss, Weights) {
    LossCase c;
    c.xDims = {2, 3};
    c.tDims = {2};
    c.weight = true;
    c.wDims = {3};
    const std::vector<float> w = {0.2f, 0.3f, 0.5f};
    c.reduction = LossReduction::NONE;
    auto r = runLoss(c, kX, {2, 0}, w);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1.5f, 0.1f}));
    c.reduction = LossReduction::SUM;
    r = runLoss(c, kX, {2, 0}, w);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1.6f}));
    c.reduction = LossReduction::MEAN;  // (1.5 + 0.1) / (0.5 + 0.2)
    r = runLoss(c, kX, {2, 0}, w);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1.6f / 0.7f}));
}

TEST(NegativeLogLikelihoodLoss, IgnoreIndex) {
    LossCase c;
    c.xDims = {2, 3};
    c.tDims = {2};
    c.hasIgnore = true;
    c.ignore = 2;
    c.reduction = LossReduction::NONE;
    auto r = runLoss(c, kX, {2, 0});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0.0f, 0.5f}));
    c.reduction = LossReduction::MEAN;  // the ignored element counts for nothing: 0.5 / 1
    r = runLoss(c, kX, {2, 0});
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0.5f}));
    c.weight = true;  // 0.5 * 0.2 / 0.2
    c.wDims = {3};
    r = runLoss(c, kX, {2, 0}, {0.2f, 0.3f, 0.5f});
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0.5f}));
    // a negative ignore_index (outside [0, C)) is skipped, not an error
    c.weight = false;
    c.ignore = -1;
    r = runLoss(c, kX, {-1, 1});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1.5f}));
    // everything ignored: mean is 0 / 0
    r = runLoss(c, kX, {-1, -1});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(isnan(r.outputs["y"]->host<float>()[0]));
}

TEST(NegativeLogLikelihoodLoss, SpatialAndTypes) {
    // x [1, 2, 2]: class 0 over d = (-1, -3), class 1 over d = (-2, -4); targets (1, 0)
    LossCase c;
    c.xDims = {1, 2, 2};
    c.tDims = {1, 2};
    c.reduction = LossReduction::NONE;
    auto r = runLoss(c, {-1, -3, -2, -4}, {1, 0});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(shapeOf(r.outputs["y"].get()), (std::vector<int>{1, 2}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {2.0f, 3.0f}));

    // double input, int32 target
    c.xType = DataType::DT_DOUBLE;
    c.tType = DataType::DT_INT32;
    c.reduction = LossReduction::SUM;
    auto xt = makeTyped<double>({1, 2, 2}, {-1, -3, -2, -4});
    auto tt = makeTyped<int32_t>({1, 2}, {1, 0});
    auto r2 = runModel(lossModel(c), {{"x", xt.get()}, {"t", tt.get()}});
    ASSERT_EQ(r2.code, NO_ERROR);
    EXPECT_EQ(valuesOf<double>(r2.outputs["y"].get()), (std::vector<double>{5.0}));

    // zero-size batch: none gives an empty loss
    c = LossCase();
    c.xDims = {0, 3};
    c.tDims = {0};
    c.reduction = LossReduction::NONE;
    r = runLoss(c, {}, {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(shapeOf(r.outputs["y"].get()), (std::vector<int>{0}));
}

TEST(NegativeLogLikelihoodLoss, BadShapesAndTargets) {
    LossCase c;
    c.xDims = {2, 3};
    c.tDims = {3};
    EXPECT_TRUE(createFails(lossModel(c), "nll", "target"));
    c.tDims = {2, 1};
    EXPECT_TRUE(createFails(lossModel(c), "nll", "target"));
    c.xDims = {3};
    c.tDims = {};
    EXPECT_TRUE(createFails(lossModel(c), "nll", "target"));
    c.xDims = {2, 3};
    c.tDims = {2};
    c.weight = true;
    c.wDims = {2};
    EXPECT_TRUE(createFails(lossModel(c), "nll", "weight"));
    c.weight = false;
    c.tType = DataType::DT_FLOAT;
    EXPECT_TRUE(createFails(lossModel(c), "nll", "int32 or int64"));
    c.tType = DataType::DT_INT64;
    c.xType = DataType::DT_INT32;
    EXPECT_TRUE(createFails(lossModel(c), "nll", "float or double"));

    // a class outside [0, C) that is not ignored fails the run with a log line
    c = LossCase();
    c.xDims = {2, 3};
    c.tDims = {2};
    ::testing::internal::CaptureStderr();
    auto r = runLoss(c, kX, {3, 0});
    std::string log = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(r.code, INPUT_DATA_ERROR);
    EXPECT_NE(log.find("nll"), std::string::npos) << log;
    EXPECT_NE(log.find("outside [0, 3)"), std::string::npos) << log;
}
