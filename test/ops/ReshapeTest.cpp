// Reshape, Flatten, Squeeze, Unsqueeze, Transpose.
#include "DataOpTestUtil.hpp"

using namespace MNN;
using namespace MNN::Test;

static RunResult reshape(const std::vector<int>& in, const std::vector<int64_t>& shape, bool allowZero,
                         std::vector<float> values = {}) {
    OpModel m;
    int n = 1;
    for (auto d : in) {
        n *= d;
    }
    if (values.empty()) {
        for (int i = 0; i < n; ++i) {
            values.push_back((float)i);
        }
    }
    m.input<float>("x", in, values);
    m.constant<int64_t>("shape", {(int)shape.size()}, shape);
    auto op = m.op(Schema::OpType::Reshape, {"x", "shape"}, {"y"});
    Schema::ReshapeParamT p;
    p.allowZero = allowZero;
    op->param.Set(p);
    return m.run();
}

TEST(Reshape, GoldenZeroCopiesAndMinusOneInfers) {
    auto r = reshape({2, 3, 4}, {0, -1, 2}, false);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 6, 2}));
    auto v = valuesOf<float>(r.outputs["y"].get());
    ASSERT_EQ(v.size(), 24u);
    for (int i = 0; i < 24; ++i) {
        EXPECT_EQ(v[i], (float)i);
    }
}

TEST(Reshape, AllowZeroKeepsZero) {
    auto r = reshape({0, 3}, {3, 0}, true);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{3, 0}));
    // without allowZero the 0 copies the input's dim 1 = 3: 0 elements into 3x3 fails
    OpModel m;
    m.input<float>("x", {0, 3}, {});
    m.constant<int64_t>("shape", {2}, {3, 0});
    m.op(Schema::OpType::Reshape, {"x", "shape"}, {"y"});
    EXPECT_TRUE(m.createFails("cannot reshape"));
}

TEST(Reshape, ToAndFromRank0) {
    auto r = reshape({1, 1}, {}, false, {42});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->dimensions(), 0);
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{42}));
    auto s = reshape({}, {-1}, false, {5});
    ASSERT_EQ(s.code, NO_ERROR);
    EXPECT_EQ(dimsOf(s.outputs["y"].get()), (std::vector<int>{1}));
}

TEST(Reshape, InvalidShapesFailAtCreate) {
    OpModel a;
    a.input<float>("x", {2, 3}, {0, 1, 2, 3, 4, 5});
    a.constant<int64_t>("shape", {2}, {-1, -1});
    a.op(Schema::OpType::Reshape, {"x", "shape"}, {"y"});
    EXPECT_TRUE(a.createFails("more than one -1"));

    OpModel b;
    b.input<float>("x", {2, 3}, {0, 1, 2, 3, 4, 5});
    b.constant<int64_t>("shape", {2}, {4, -1});
    b.op(Schema::OpType::Reshape, {"x", "shape"}, {"y"});
    EXPECT_TRUE(b.createFails("cannot infer -1"));

    OpModel c;
    c.input<float>("x", {2, 3}, {0, 1, 2, 3, 4, 5});
    c.constant<int64_t>("shape", {1}, {-2});
    c.op(Schema::OpType::Reshape, {"x", "shape"}, {"y"});
    EXPECT_TRUE(c.createFails("-2 is invalid"));

    OpModel d;
    d.input<float>("x", {6}, {0, 1, 2, 3, 4, 5});
    d.constant<int64_t>("shape", {2}, {0, 0});
    d.op(Schema::OpType::Reshape, {"x", "shape"}, {"y"});
    EXPECT_TRUE(d.createFails("lacks"));
}

TEST(Reshape, Int32Data) {
    OpModel m;
    m.input<int32_t>("x", {4}, {1, -2, 3, -4});
    m.constant<int32_t>("shape", {2}, {2, 2});
    m.op(Schema::OpType::Reshape, {"x", "shape"}, {"y"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 2}));
    EXPECT_EQ(valuesOf<int32_t>(r.outputs["y"].get()), (std::vector<int32_t>{1, -2, 3, -4}));
}

static RunResult flatten(const std::vector<int>& in, int axis) {
    OpModel m;
    int n = 1;
    for (auto d : in) {
        n *= d;
    }
    std::vector<float> v(n, 1.0f);
    m.input<float>("x", in, v);
    auto op = m.op(Schema::OpType::Flatten, {"x"}, {"y"});
    Schema::AxisParamT p;
    p.axis = axis;
    op->param.Set(p);
    return m.run();
}

TEST(Flatten, Shapes) {
    auto r = flatten({2, 3, 4}, 1);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 12}));
    r = flatten({2, 3, 4}, -1);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{6, 4}));
    r = flatten({2, 3, 4}, 0);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{1, 24}));
    r = flatten({2, 3, 4}, 3);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{24, 1}));
    r = flatten({}, 0);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{1, 1}));
    r = flatten({2, 0, 3}, 2);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{0, 3}));
    OpModel m;
    m.input<float>("x", {2, 3}, {1, 2, 3, 4, 5, 6});
    auto op = m.op(Schema::OpType::Flatten, {"x"}, {"y"});
    Schema::AxisParamT p;
    p.axis = 3;
    op->param.Set(p);
    EXPECT_TRUE(m.createFails("axis 3 out of range"));
}

TEST(Squeeze, AxesAndDefault) {
    OpModel m;
    m.input<float>("x", {1, 3, 1, 2}, {1, 2, 3, 4, 5, 6});
    m.constant<int64_t>("axes", {1}, {-2});
    m.op(Schema::OpType::Squeeze, {"x", "axes"}, {"y"});
    m.op(Schema::OpType::Squeeze, {"x"}, {"z"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{1, 3, 2}));
    EXPECT_EQ(dimsOf(r.outputs["z"].get()), (std::vector<int>{3, 2}));
    EXPECT_EQ(valuesOf<float>(r.outputs["z"].get()), (std::vector<float>{1, 2, 3, 4, 5, 6}));

    OpModel s;
    s.input<int64_t>("x", {1}, {9});
    s.op(Schema::OpType::Squeeze, {"x"}, {"y"});
    auto q = s.run();
    ASSERT_EQ(q.code, NO_ERROR);
    EXPECT_EQ(q.outputs["y"]->dimensions(), 0);
    EXPECT_EQ(valuesOf<int64_t>(q.outputs["y"].get()), (std::vector<int64_t>{9}));
}

TEST(Squeeze, NonUnitAxisFailsAtCreate) {
    OpModel m;
    m.input<float>("x", {1, 3}, {1, 2, 3});
    m.constant<int64_t>("axes", {1}, {1});
    m.op(Schema::OpType::Squeeze, {"x", "axes"}, {"y"});
    EXPECT_TRUE(m.createFails("has size 3, not 1"));
}

TEST(Unsqueeze, NegativeAndUnorderedAxes) {
    OpModel m;
    m.input<float>("x", {3, 2}, {1, 2, 3, 4, 5, 6});
    m.constant<int64_t>("axes", {2}, {-1, 0});
    m.op(Schema::OpType::Unsqueeze, {"x", "axes"}, {"y"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{1, 3, 2, 1}));

    OpModel s;
    s.input<float>("x", {}, {3});
    s.constant<int64_t>("axes", {1}, {0});
    s.op(Schema::OpType::Unsqueeze, {"x", "axes"}, {"y"});
    auto q = s.run();
    ASSERT_EQ(q.code, NO_ERROR);
    EXPECT_EQ(dimsOf(q.outputs["y"].get()), (std::vector<int>{1}));

    OpModel d;
    d.input<float>("x", {3}, {1, 2, 3});
    d.constant<int64_t>("axes", {2}, {0, -3});
    d.op(Schema::OpType::Unsqueeze, {"x", "axes"}, {"y"});
    EXPECT_TRUE(d.createFails("repeated"));
}

TEST(Transpose, GoldenPermAndDefault) {
    OpModel m;
    std::vector<float> x(24);
    for (int i = 0; i < 24; ++i) {
        x[i] = (float)i;
    }
    m.input<float>("x", {2, 3, 4}, x);
    auto op = m.op(Schema::OpType::Transpose, {"x"}, {"y"});
    Schema::TransposeParamT p;
    p.perm = {1, 2, 0};
    op->param.Set(p);
    m.op(Schema::OpType::Transpose, {"x"}, {"z"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    auto y = r.outputs["y"].get();
    auto z = r.outputs["z"].get();
    EXPECT_EQ(dimsOf(y), (std::vector<int>{3, 4, 2}));
    EXPECT_EQ(dimsOf(z), (std::vector<int>{4, 3, 2}));
    auto yv = valuesOf<float>(y);
    auto zv = valuesOf<float>(z);
    // y[j][k][i] = x[i][j][k], z[k][j][i] = x[i][j][k]
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 3; ++j) {
            for (int k = 0; k < 4; ++k) {
                EXPECT_EQ(yv[(j * 4 + k) * 2 + i], x[(i * 3 + j) * 4 + k]);
                EXPECT_EQ(zv[(k * 3 + j) * 2 + i], x[(i * 3 + j) * 4 + k]);
            }
        }
    }
    EXPECT_EQ(yv[1], 12.0f);  // y[0][0][1] = x[1][0][0]
}

TEST(Transpose, Int16ZeroSizeAndBadPerm) {
    OpModel m;
    m.input<int16_t>("x", {2, 3}, {1, 2, 3, 4, 5, 6});
    m.input<int16_t>("e", {0, 3}, {});
    m.op(Schema::OpType::Transpose, {"x"}, {"y"});
    m.op(Schema::OpType::Transpose, {"e"}, {"z"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<int16_t>(r.outputs["y"].get()), (std::vector<int16_t>{1, 4, 2, 5, 3, 6}));
    EXPECT_EQ(dimsOf(r.outputs["z"].get()), (std::vector<int>{3, 0}));

    OpModel b;
    b.input<float>("x", {2, 3}, {1, 2, 3, 4, 5, 6});
    auto op = b.op(Schema::OpType::Transpose, {"x"}, {"y"});
    Schema::TransposeParamT p;
    p.perm = {0, 0};
    op->param.Set(p);
    EXPECT_TRUE(b.createFails("not a permutation"));
}
