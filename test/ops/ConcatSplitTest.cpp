// Concat and Split: hand-computed golden values.
#include "DataOpTestUtil.hpp"

using namespace MNN;
using namespace MNN::Test;

static void setAxis(Schema::OpT* op, int axis, int numOutputs = 0) {
    Schema::AxisParamT p;
    p.axis = axis;
    p.numOutputs = numOutputs;
    op->param.Set(p);
}

TEST(Concat, GoldenNegativeAxisWithZeroSizeInput) {
    OpModel m;
    m.input<float>("a", {2, 2}, {1, 2, 3, 4});
    m.input<float>("z", {2, 0}, {});
    m.constant<float>("b", {2, 1}, {5, 6});
    setAxis(m.op(Schema::OpType::Concat, {"a", "z", "b"}, {"y"}), -1);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 3}));
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{1, 2, 5, 3, 4, 6}));
}

TEST(Concat, GoldenAxis0Int64) {
    OpModel m;
    m.input<int64_t>("a", {1, 2}, {1, -2});
    m.input<int64_t>("b", {2, 2}, {3, 4, (int64_t)1 << 40, 6});
    setAxis(m.op(Schema::OpType::Concat, {"a", "b"}, {"y"}), 0);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{3, 2}));
    EXPECT_EQ(valuesOf<int64_t>(r.outputs["y"].get()), (std::vector<int64_t>{1, -2, 3, 4, (int64_t)1 << 40, 6}));
}

TEST(Concat, GoldenMiddleAxisUint8) {
    OpModel m;
    m.input<uint8_t>("a", {2, 1, 2}, {1, 2, 3, 4});
    m.input<uint8_t>("b", {2, 2, 2}, {5, 6, 7, 8, 9, 10, 11, 12});
    setAxis(m.op(Schema::OpType::Concat, {"a", "b"}, {"y"}), 1);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<uint8_t>(r.outputs["y"].get()),
              (std::vector<uint8_t>{1, 2, 5, 6, 7, 8, 3, 4, 9, 10, 11, 12}));
}

TEST(Concat, MismatchedShapesFailAtCreate) {
    OpModel m;
    m.input<float>("a", {2, 2}, {1, 2, 3, 4});
    m.input<float>("b", {3, 1}, {5, 6, 7});
    setAxis(m.op(Schema::OpType::Concat, {"a", "b"}, {"y"}), 1);
    EXPECT_TRUE(m.createFails("Concat"));
}

TEST(Concat, AxisOutOfRangeAndRank0FailAtCreate) {
    OpModel m;
    m.input<float>("a", {2}, {1, 2});
    setAxis(m.op(Schema::OpType::Concat, {"a", "a"}, {"y"}), 1);
    EXPECT_TRUE(m.createFails("axis 1"));
    OpModel s;
    s.input<float>("a", {}, {1});
    setAxis(s.op(Schema::OpType::Concat, {"a", "a"}, {"y"}), 0);
    EXPECT_TRUE(s.createFails("rank 0"));
}

TEST(Concat, MixedTypesFailAtCreate) {
    OpModel m;
    m.input<float>("a", {2}, {1, 2});
    m.input<int32_t>("b", {2}, {1, 2});
    setAxis(m.op(Schema::OpType::Concat, {"a", "b"}, {"y"}), 0);
    EXPECT_TRUE(m.createFails("type"));
}

TEST(Split, GoldenSplitInputOnAxis1) {
    OpModel m;
    m.input<float>("x", {2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
    m.constant<int64_t>("s", {3}, {1, 0, 3});
    setAxis(m.op(Schema::OpType::Split, {"x", "s"}, {"a", "b", "c"}), -1);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["a"].get()), (std::vector<int>{2, 1}));
    EXPECT_EQ(dimsOf(r.outputs["b"].get()), (std::vector<int>{2, 0}));
    EXPECT_EQ(dimsOf(r.outputs["c"].get()), (std::vector<int>{2, 3}));
    EXPECT_EQ(valuesOf<float>(r.outputs["a"].get()), (std::vector<float>{1, 5}));
    EXPECT_EQ(valuesOf<float>(r.outputs["c"].get()), (std::vector<float>{2, 3, 4, 6, 7, 8}));
}

TEST(Split, GoldenNumOutputsUneven) {
    // opset 18: 7 into 3 -> ceil(7/3)=3: 3, 3, 1
    OpModel m;
    m.input<int32_t>("x", {7}, {0, 1, 2, 3, 4, 5, 6});
    setAxis(m.op(Schema::OpType::Split, {"x"}, {"a", "b", "c"}), 0, 3);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<int32_t>(r.outputs["a"].get()), (std::vector<int32_t>{0, 1, 2}));
    EXPECT_EQ(valuesOf<int32_t>(r.outputs["b"].get()), (std::vector<int32_t>{3, 4, 5}));
    EXPECT_EQ(valuesOf<int32_t>(r.outputs["c"].get()), (std::vector<int32_t>{6}));
}

TEST(Split, GoldenEvenDefault) {
    OpModel m;
    m.input<double>("x", {3, 2}, {1, 2, 3, 4, 5, 6});
    setAxis(m.op(Schema::OpType::Split, {"x"}, {"a", "b", "c"}), 0);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<double>(r.outputs["b"].get()), (std::vector<double>{3, 4}));
    EXPECT_EQ(valuesOf<double>(r.outputs["c"].get()), (std::vector<double>{5, 6}));
}

TEST(Split, BadSizesFailAtCreate) {
    OpModel m;
    m.input<float>("x", {4}, {1, 2, 3, 4});
    m.constant<int64_t>("s", {2}, {1, 2});
    setAxis(m.op(Schema::OpType::Split, {"x", "s"}, {"a", "b"}), 0);
    EXPECT_TRUE(m.createFails("add up to 3"));

    OpModel u;
    u.input<float>("x", {5}, {1, 2, 3, 4, 5});
    setAxis(u.op(Schema::OpType::Split, {"x"}, {"a", "b"}), 0);
    EXPECT_TRUE(u.createFails("evenly"));

    OpModel n;
    n.input<float>("x", {5}, {1, 2, 3, 4, 5});
    setAxis(n.op(Schema::OpType::Split, {"x"}, {"a", "b", "c", "d"}), 0, 4);
    EXPECT_TRUE(n.createFails("cannot be split"));
}
