// CenterCropPad (AxisParam.axes) and ReverseSequence (AxisParam.axis = time_axis,
// AxisParam.batchDims = batch_axis). Golden values from the ONNX operator docs / by hand.
#include "DataOpTestUtil.hpp"

using namespace MNN;
using namespace MNN::Test;

static Schema::OpT* ccp(OpModel& m, const std::vector<int>& axes) {
    auto op = m.op(Schema::OpType::CenterCropPad, {"x", "s"}, {"y"});
    if (!axes.empty()) {
        Schema::AxisParamT p;
        p.axes = axes;
        op->param.Set(p);
    }
    return op;
}

TEST(CenterCropPad, GoldenCropAndPad1D) {
    OpModel a;
    a.input<float>("x", {5}, {0, 1, 2, 3, 4});
    a.constant<int64_t>("s", {1}, {2});
    ccp(a, {});
    auto r = a.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{1, 2}));

    OpModel b;
    b.input<float>("x", {5}, {0, 1, 2, 3, 4});
    b.constant<int64_t>("s", {1}, {4});
    ccp(b, {});
    r = b.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{0, 1, 2, 3}));

    OpModel c;
    c.input<int32_t>("x", {2}, {1, 2});
    c.constant<int64_t>("s", {1}, {5});
    ccp(c, {});
    r = c.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<int32_t>(r.outputs["y"].get()), (std::vector<int32_t>{0, 1, 2, 0, 0}));
}

TEST(CenterCropPad, AxesAndMixed) {
    OpModel a;
    a.input<float>("x", {2, 3}, {1, 2, 3, 4, 5, 6});
    a.constant<int64_t>("s", {1}, {1});
    ccp(a, {-1});
    auto r = a.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 1}));
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{2, 5}));

    OpModel b;
    b.input<float>("x", {3, 2}, {1, 2, 3, 4, 5, 6});
    b.constant<int64_t>("s", {2}, {1, 4});
    ccp(b, {});
    r = b.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{1, 4}));
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{0, 3, 4, 0}));

    OpModel e;
    e.input<float>("x", {3, 2}, {1, 2, 3, 4, 5, 6});
    e.constant<int64_t>("s", {1}, {1});
    ccp(e, {});
    EXPECT_TRUE(e.createFails("shape has 1 values for 2 axes"));
}

static RunResult reverse(int timeAxis, int batchAxis, const std::vector<int64_t>& lens) {
    OpModel m;
    std::vector<float> x(16);
    for (int i = 0; i < 16; ++i) {
        x[i] = (float)i;
    }
    m.input<float>("x", {4, 4}, x);
    m.input<int64_t>("l", {4}, lens);
    auto op = m.op(Schema::OpType::ReverseSequence, {"x", "l"}, {"y"});
    Schema::AxisParamT p;
    p.axis = timeAxis;
    p.batchDims = batchAxis;
    op->param.Set(p);
    return m.run();
}

TEST(ReverseSequence, GoldenBothLayouts) {
    auto a = reverse(0, 1, {4, 3, 2, 1});
    ASSERT_EQ(a.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(a.outputs["y"].get()),
              (std::vector<float>{12, 9, 6, 3, 8, 5, 2, 7, 4, 1, 10, 11, 0, 13, 14, 15}));
    auto b = reverse(1, 0, {1, 2, 3, 4});
    ASSERT_EQ(b.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(b.outputs["y"].get()),
              (std::vector<float>{0, 1, 2, 3, 5, 4, 6, 7, 10, 9, 8, 11, 15, 14, 13, 12}));
    auto z = reverse(1, 0, {0, 0, 0, 0});
    ASSERT_EQ(z.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(z.outputs["y"].get())[5], 5.0f);
}

TEST(ReverseSequence, ErrorsAtCreateAndRun) {
    EXPECT_EQ(reverse(0, 1, {5, 1, 1, 1}).code, INPUT_DATA_ERROR);
    EXPECT_EQ(reverse(0, 1, {-1, 1, 1, 1}).code, INPUT_DATA_ERROR);
    OpModel m;
    m.input<float>("x", {2, 2}, {1, 2, 3, 4});
    m.constant<int64_t>("l", {2}, {1, 1});
    auto op = m.op(Schema::OpType::ReverseSequence, {"x", "l"}, {"y"});
    Schema::AxisParamT p;
    p.axis = 0;
    p.batchDims = 0;
    op->param.Set(p);
    EXPECT_TRUE(m.createFails("must be 0 and 1"));

    OpModel n;
    n.input<float>("x", {2, 3}, {1, 2, 3, 4, 5, 6});
    n.constant<int64_t>("l", {2}, {1, 1});
    n.op(Schema::OpType::ReverseSequence, {"x", "l"}, {"y"});
    EXPECT_TRUE(n.createFails("sequence_lens"));
}
