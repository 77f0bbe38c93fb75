// Shape, Size, ConstantOfShape, Range, DepthToSpace, SpaceToDepth.
#include <math.h>
#include "DataOpTestUtil.hpp"

using namespace MNN;
using namespace MNN::Test;

static std::vector<int64_t> shapeOf(const std::vector<int>& dims, int start, int end, bool param) {
    OpModel m;
    int n = 1;
    for (auto d : dims) {
        n *= d;
    }
    m.input<float>("x", dims, std::vector<float>(n, 0.0f));
    auto op = m.op(Schema::OpType::Shape, {"x"}, {"y"});
    if (param) {
        Schema::ShapeParamT p;
        p.start = start;
        p.end = end;
        op->param.Set(p);
    }
    auto r = m.run();
    EXPECT_EQ(r.code, NO_ERROR);
    if (r.code != NO_ERROR) {
        return {-999};
    }
    EXPECT_EQ(r.outputs["y"]->getType(), halide_type_of<int64_t>());
    EXPECT_EQ(r.outputs["y"]->dimensions(), 1);
    return valuesOf<int64_t>(r.outputs["y"].get());
}

TEST(Shape, StartEnd) {
    EXPECT_EQ(shapeOf({2, 3, 4}, 0, 0, false), (std::vector<int64_t>{2, 3, 4}));
    EXPECT_EQ(shapeOf({2, 3, 4}, 1, 0x7fffffff, true), (std::vector<int64_t>{3, 4}));
    EXPECT_EQ(shapeOf({2, 3, 4}, -2, -1, true), (std::vector<int64_t>{3}));
    EXPECT_EQ(shapeOf({2, 3, 4}, -10, 2, true), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(shapeOf({2, 3, 4}, 5, 10, true), (std::vector<int64_t>{}));
    EXPECT_EQ(shapeOf({2, 3, 4}, 2, 1, true), (std::vector<int64_t>{}));
    EXPECT_EQ(shapeOf({}, 0, 0, false), (std::vector<int64_t>{}));
    EXPECT_EQ(shapeOf({0, 5}, 0, 0, false), (std::vector<int64_t>{0, 5}));
}

TEST(Size, CountsAsInt64Scalar) {
    OpModel m;
    m.input<int8_t>("x", {2, 3, 4}, std::vector<int8_t>(24, 1));
    m.input<float>("e", {3, 0}, {});
    m.input<float>("s", {}, {1});
    m.op(Schema::OpType::Size, {"x"}, {"a"});
    m.op(Schema::OpType::Size, {"e"}, {"b"});
    m.op(Schema::OpType::Size, {"s"}, {"c"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["a"]->dimensions(), 0);
    EXPECT_EQ(r.outputs["a"]->getType(), halide_type_of<int64_t>());
    EXPECT_EQ(valuesOf<int64_t>(r.outputs["a"].get()), (std::vector<int64_t>{24}));
    EXPECT_EQ(valuesOf<int64_t>(r.outputs["b"].get()), (std::vector<int64_t>{0}));
    EXPECT_EQ(valuesOf<int64_t>(r.outputs["c"].get()), (std::vector<int64_t>{1}));
}

static void setValue(Schema::OpT* op, Schema::DataType type, const void* data, size_t bytes) {
    Schema::ConstantParamT p;
    p.value.reset(new Schema::BlobT);
    p.value->dataType = type;
    p.value->dims = {1};
    p.value->raw.assign((const uint8_t*)data, (const uint8_t*)data + bytes);
    op->param.Set(p);
}

TEST(ConstantOfShape, DefaultFloatZeroAndTypedValue) {
    OpModel m;
    m.constant<int64_t>("s", {2}, {2, 3});
    m.op(Schema::OpType::ConstantOfShape, {"s"}, {"a"});
    int32_t seven = 7;
    setValue(m.op(Schema::OpType::ConstantOfShape, {"s"}, {"b"}), Schema::DataType::DT_INT32, &seven, 4);
    m.constant<int64_t>("empty", {0}, {});
    double pi = 3.25;
    setValue(m.op(Schema::OpType::ConstantOfShape, {"empty"}, {"c"}), Schema::DataType::DT_DOUBLE, &pi, 8);
    m.constant<int64_t>("z", {2}, {4, 0});
    m.op(Schema::OpType::ConstantOfShape, {"z"}, {"d"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["a"]->getType(), halide_type_of<float>());
    EXPECT_EQ(valuesOf<float>(r.outputs["a"].get()), std::vector<float>(6, 0.0f));
    EXPECT_EQ(r.outputs["b"]->getType(), halide_type_of<int32_t>());
    EXPECT_EQ(dimsOf(r.outputs["b"].get()), (std::vector<int>{2, 3}));
    EXPECT_EQ(valuesOf<int32_t>(r.outputs["b"].get()), std::vector<int32_t>(6, 7));
    EXPECT_EQ(r.outputs["c"]->dimensions(), 0);
    EXPECT_EQ(valuesOf<double>(r.outputs["c"].get()), (std::vector<double>{3.25}));
    EXPECT_EQ(dimsOf(r.outputs["d"].get()), (std::vector<int>{4, 0}));
}

TEST(ConstantOfShape, ShapeFromGraphInputAndErrors) {
    OpModel m;
    m.input<int64_t>("s", {3}, {1, 2, 2});
    uint8_t one = 1;
    setValue(m.op(Schema::OpType::ConstantOfShape, {"s"}, {"y"}), Schema::DataType::DT_BOOL, &one, 1);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{1, 2, 2}));
    EXPECT_EQ(valuesOf<uint8_t>(r.outputs["y"].get()), std::vector<uint8_t>(4, 1));

    OpModel e;
    e.constant<int64_t>("s", {2}, {2, -1});
    e.op(Schema::OpType::ConstantOfShape, {"s"}, {"y"});
    EXPECT_TRUE(e.createFails("shape value -1 is invalid"));

    OpModel f;
    f.constant<float>("s", {1}, {2});
    f.op(Schema::OpType::ConstantOfShape, {"s"}, {"y"});
    EXPECT_TRUE(f.createFails("int64"));
}

template <typename T>
static RunResult range(T s, T l, T d) {
    OpModel m;
    m.constant<T>("s", {}, {s});
    m.constant<T>("l", {}, {l});
    m.constant<T>("d", {}, {d});
    m.op(Schema::OpType::Range, {"s", "l", "d"}, {"y"});
    return m.run();
}

TEST(Range, GoldenTypes) {
    auto a = range<float>(1.0f, 2.5f, 0.5f);
    ASSERT_EQ(a.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(a.outputs["y"].get()), (std::vector<float>{1.0f, 1.5f, 2.0f}));
    auto b = range<int32_t>(10, 4, -3);
    ASSERT_EQ(b.code, NO_ERROR);
    EXPECT_EQ(valuesOf<int32_t>(b.outputs["y"].get()), (std::vector<int32_t>{10, 7}));
    auto c = range<int64_t>(0, 0, 1);
    ASSERT_EQ(c.code, NO_ERROR);
    EXPECT_EQ(dimsOf(c.outputs["y"].get()), (std::vector<int>{0}));
    auto d = range<double>(-1.0, 1.0, 0.75);
    ASSERT_EQ(d.code, NO_ERROR);
    EXPECT_EQ(valuesOf<double>(d.outputs["y"].get()), (std::vector<double>{-1.0, -0.25, 0.5}));
    auto e = range<int16_t>(5, 10, -1);
    ASSERT_EQ(e.code, NO_ERROR);
    EXPECT_EQ(dimsOf(e.outputs["y"].get()), (std::vector<int>{0}));
    auto f = range<int64_t>(-3, 4, 3);
    ASSERT_EQ(f.code, NO_ERROR);
    EXPECT_EQ(valuesOf<int64_t>(f.outputs["y"].get()), (std::vector<int64_t>{-3, 0, 3}));
}

TEST(Range, FromGraphInputsAndErrors) {
    OpModel m;
    m.input<int64_t>("s", {}, {2});
    m.input<int64_t>("l", {}, {6});
    m.constant<int64_t>("d", {}, {2});
    m.op(Schema::OpType::Range, {"s", "l", "d"}, {"y"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<int64_t>(r.outputs["y"].get()), (std::vector<int64_t>{2, 4}));

    OpModel z;
    z.constant<float>("s", {}, {0});
    z.constant<float>("l", {}, {1});
    z.constant<float>("d", {}, {0});
    z.op(Schema::OpType::Range, {"s", "l", "d"}, {"y"});
    EXPECT_TRUE(z.createFails("delta is 0"));

    OpModel t;
    t.constant<float>("s", {}, {0});
    t.constant<int32_t>("l", {}, {1});
    t.constant<float>("d", {}, {1});
    t.op(Schema::OpType::Range, {"s", "l", "d"}, {"y"});
    EXPECT_TRUE(t.createFails("must be a single"));
}

static RunResult spaceDepth(Schema::OpType type, const std::vector<int>& dims, int block, int mode) {
    OpModel m;
    int n = 1;
    for (auto d : dims) {
        n *= d;
    }
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i) {
        x[i] = (float)i;
    }
    m.input<float>("x", dims, x);
    auto op = m.op(type, {"x"}, {"y"});
    Schema::SpaceDepthParamT p;
    p.blockSize = block;
    p.mode = mode;
    op->param.Set(p);
    return m.run();
}

TEST(DepthToSpace, GoldenDCRandCRD) {
    // x = 0..7 as [1,8,1,1], block 2: DCR y[c][i][j] = x[(i*2+j)*2+c]; CRD y[c][i][j] = x[c*4+i*2+j]
    auto d = spaceDepth(Schema::OpType::DepthToSpace, {1, 8, 1, 1}, 2, 0);
    ASSERT_EQ(d.code, NO_ERROR);
    EXPECT_EQ(dimsOf(d.outputs["y"].get()), (std::vector<int>{1, 2, 2, 2}));
    EXPECT_EQ(valuesOf<float>(d.outputs["y"].get()), (std::vector<float>{0, 2, 4, 6, 1, 3, 5, 7}));
    auto c = spaceDepth(Schema::OpType::DepthToSpace, {1, 8, 1, 1}, 2, 1);
    ASSERT_EQ(c.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(c.outputs["y"].get()), (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}));
    // 4 channels of 2x2, block 2: y[h*2+i][w*2+j] = x[i*2+j][h][w]
    auto e = spaceDepth(Schema::OpType::DepthToSpace, {1, 4, 2, 2}, 2, 0);
    ASSERT_EQ(e.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(e.outputs["y"].get()),
              (std::vector<float>{0, 4, 1, 5, 8, 12, 9, 13, 2, 6, 3, 7, 10, 14, 11, 15}));
}

TEST(DepthToSpace, LoopReferenceBothModes) {
    const int N = 2, C = 8, H = 3, W = 2, b = 2, Co = C / (b * b);
    for (int mode = 0; mode < 2; ++mode) {
        auto r = spaceDepth(Schema::OpType::DepthToSpace, {N, C, H, W}, b, mode);
        ASSERT_EQ(r.code, NO_ERROR);
        auto y = valuesOf<float>(r.outputs["y"].get());
        ASSERT_EQ(y.size(), (size_t)(N * C * H * W));
        for (int n = 0; n < N; ++n)
            for (int c = 0; c < Co; ++c)
                for (int h = 0; h < H * b; ++h)
                    for (int w = 0; w < W * b; ++w) {
                        int i = h % b, j = w % b;
                        int ci = mode == 0 ? (i * b + j) * Co + c : c * b * b + i * b + j;
                        float want = (float)(((n * C + ci) * H + h / b) * W + w / b);
                        EXPECT_EQ(y[((n * Co + c) * H * b + h) * W * b + w], want);
                    }
    }
}

TEST(SpaceToDepth, Golden) {
    auto r = spaceDepth(Schema::OpType::SpaceToDepth, {1, 1, 4, 4}, 2, 0);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{1, 4, 2, 2}));
    // y[(i*2+j)][h][w] = x[h*2+i][w*2+j]
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()),
              (std::vector<float>{0, 2, 8, 10, 1, 3, 9, 11, 4, 6, 12, 14, 5, 7, 13, 15}));
}

TEST(SpaceToDepth, InvalidFailAtCreate) {
    OpModel m;
    m.input<float>("x", {1, 1, 3, 4}, std::vector<float>(12, 0.0f));
    auto op = m.op(Schema::OpType::SpaceToDepth, {"x"}, {"y"});
    Schema::SpaceDepthParamT p;
    p.blockSize = 2;
    op->param.Set(p);
    EXPECT_TRUE(m.createFails("not divisible"));

    OpModel d;
    d.input<float>("x", {1, 6, 1, 1}, std::vector<float>(6, 0.0f));
    auto o2 = d.op(Schema::OpType::DepthToSpace, {"x"}, {"y"});
    o2->param.Set(p);
    EXPECT_TRUE(d.createFails("not divisible"));

    OpModel r;
    r.input<float>("x", {4, 4}, std::vector<float>(16, 0.0f));
    auto o3 = r.op(Schema::OpType::DepthToSpace, {"x"}, {"y"});
    o3->param.Set(p);
    EXPECT_TRUE(r.createFails("4-D"));
}
