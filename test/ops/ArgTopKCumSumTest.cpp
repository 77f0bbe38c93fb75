// ArgMax / ArgMin, TopK and CumSum.
#include <math.h>
#include <algorithm>
#include <limits>
#include "OpTestHelpers.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
const float kNan = std::numeric_limits<float>::quiet_NaN();

std::vector<uint8_t> argModel(const std::vector<int>& dims, int axis, bool keep, bool last, bool isMin,
                              Schema::DataType dt = Schema::DataType::DT_FLOAT) {
    ModelBuilder mb;
    mb.input("x", dims, dt);
    auto op = mb.op(Schema::OpType::ArgMax, "arg", {"x"}, {"y"});
    Schema::ArgParamT p;
    p.axis = axis;
    p.keepDims = keep;
    p.selectLastIndex = last;
    p.isMin = isMin;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

template <typename T>
std::vector<int64_t> runArg(const std::vector<int>& dims, const std::vector<T>& x, int axis, bool keep, bool last,
                            bool isMin, std::vector<int>* shape = nullptr) {
    auto model = argModel(dims, axis, keep, last, isMin, dataTypeOf<T>());
    auto in = makeTyped<T>(dims, x);
    auto r = runModel(model, {{"x", in.get()}});
    EXPECT_EQ(r.code, NO_ERROR);
    if (r.code != NO_ERROR) {
        return {};
    }
    if (shape) {
        *shape = shapeOf(r.outputs["y"].get());
    }
    return valuesOf<int64_t>(r.outputs["y"].get());
}
} // namespace

TEST(ArgMax, Golden) {
    // [[2, 1, 3], [3, 5, 5]]
    const std::vector<float> x = {2, 1, 3, 3, 5, 5};
    std::vector<int> shape;
    EXPECT_EQ(runArg<float>({2, 3}, x, 1, true, false, false, &shape), (std::vector<int64_t>{2, 1}));
    EXPECT_EQ(shape, (std::vector<int>{2, 1}));
    EXPECT_EQ(runArg<float>({2, 3}, x, 1, false, true, false, &shape), (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(shape, (std::vector<int>{2}));
    EXPECT_EQ(runArg<float>({2, 3}, x, 0, true, false, false, &shape), (std::vector<int64_t>{1, 1, 1}));
    EXPECT_EQ(shape, (std::vector<int>{1, 3}));
    EXPECT_EQ(runArg<float>({2, 3}, x, -1, true, false, true), (std::vector<int64_t>{1, 0}));  // ArgMin
    EXPECT_EQ(runArg<float>({2, 3}, {1, 1, 1, 4, 2, 2}, 1, true, true, true), (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(runArg<int32_t>({4}, {-3, 9, 9, -7}, 0, false, false, false), (std::vector<int64_t>{1}));
    EXPECT_EQ(runArg<int64_t>({4}, {-3, 9, 9, -7}, 0, false, false, true), (std::vector<int64_t>{3}));
    EXPECT_EQ(runArg<uint8_t>({3}, {3, 250, 250}, 0, false, true, false), (std::vector<int64_t>{2}));
}

TEST(ArgMax, NanWinsLikeNumpy) {
    EXPECT_EQ(runArg<float>({4}, {1, kNan, 5, kNan}, 0, false, false, false), (std::vector<int64_t>{1}));
    EXPECT_EQ(runArg<float>({4}, {1, kNan, 5, kNan}, 0, false, false, true), (std::vector<int64_t>{1}));
    EXPECT_EQ(runArg<float>({4}, {1, kNan, 5, kNan}, 0, false, true, false), (std::vector<int64_t>{3}));
}

TEST(ArgMax, ZeroSizeAndErrors) {
    std::vector<int> shape;
    EXPECT_EQ(runArg<float>({0, 3}, {}, 1, true, false, false, &shape).size(), 0u);
    EXPECT_EQ(shape, (std::vector<int>{0, 1}));
    EXPECT_TRUE(createFails(argModel({2, 3}, 2, true, false, false), "arg", "out of range"));
    EXPECT_TRUE(createFails(argModel({}, 0, true, false, false), "arg", "out of range"));  // rank 0 has no axis
    EXPECT_TRUE(createFails(argModel({3, 0}, 1, true, false, false), "arg", "empty"));
}

// ---- TopK ----

namespace {
std::vector<uint8_t> topkModel(const std::vector<int>& dims, int64_t k, int axis, bool largest,
                               Schema::DataType dt = Schema::DataType::DT_FLOAT) {
    ModelBuilder mb;
    mb.input("x", dims, dt);
    mb.constantInt64("k", {1}, {k});
    auto op = mb.op(Schema::OpType::TopK, "topk", {"x", "k"}, {"values", "indices"});
    Schema::TopKParamT p;
    p.axis = axis;
    p.largest = largest;
    op->param.Set(p);
    mb.output("values");
    mb.output("indices");
    return mb.finish();
}

template <typename T>
std::pair<std::vector<T>, std::vector<int64_t>> runTopK(const std::vector<int>& dims, const std::vector<T>& x,
                                                        int64_t k, int axis, bool largest,
                                                        std::vector<int>* shape = nullptr) {
    auto model = topkModel(dims, k, axis, largest, dataTypeOf<T>());
    auto in = makeTyped<T>(dims, x);
    auto r = runModel(model, {{"x", in.get()}});
    EXPECT_EQ(r.code, NO_ERROR);
    if (r.code != NO_ERROR) {
        return {};
    }
    if (shape) {
        *shape = shapeOf(r.outputs["values"].get());
        EXPECT_EQ(*shape, shapeOf(r.outputs["indices"].get()));
    }
    return {valuesOf<T>(r.outputs["values"].get()), valuesOf<int64_t>(r.outputs["indices"].get())};
}
} // namespace

TEST(TopK, GoldenLargestSmallestAndTies) {
    // [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]] as in the ONNX example, k = 3 along the last axis
    std::vector<float> x(12);
    for (int i = 0; i < 12; ++i) {
        x[i] = (float)i;
    }
    std::vector<int> shape;
    auto r = runTopK<float>({3, 4}, x, 3, -1, true, &shape);
    EXPECT_EQ(shape, (std::vector<int>{3, 3}));
    EXPECT_EQ(r.first, (std::vector<float>{3, 2, 1, 7, 6, 5, 11, 10, 9}));
    EXPECT_EQ(r.second, (std::vector<int64_t>{3, 2, 1, 3, 2, 1, 3, 2, 1}));
    r = runTopK<float>({3, 4}, x, 2, 0, false, &shape);
    EXPECT_EQ(shape, (std::vector<int>{2, 4}));
    EXPECT_EQ(r.first, (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(r.second, (std::vector<int64_t>{0, 0, 0, 0, 1, 1, 1, 1}));
    // ties: lower index first, for largest and smallest
    r = runTopK<float>({6}, {1, 3, 2, 3, 1, 3}, 4, 0, true);
    EXPECT_EQ(r.first, (std::vector<float>{3, 3, 3, 2}));
    EXPECT_EQ(r.second, (std::vector<int64_t>{1, 3, 5, 2}));
    r = runTopK<float>({6}, {1, 3, 2, 3, 1, 3}, 3, 0, false);
    EXPECT_EQ(r.first, (std::vector<float>{1, 1, 2}));
    EXPECT_EQ(r.second, (std::vector<int64_t>{0, 4, 2}));
    auto ri = runTopK<int64_t>({5}, {5, -2, 9, 0, 9}, 2, 0, true);
    EXPECT_EQ(ri.first, (std::vector<int64_t>{9, 9}));
    EXPECT_EQ(ri.second, (std::vector<int64_t>{2, 4}));
    auto r32 = runTopK<int32_t>({5}, {5, -2, 9, 0, 9}, 2, 0, false);
    EXPECT_EQ(r32.first, (std::vector<int32_t>{-2, 0}));
    EXPECT_EQ(r32.second, (std::vector<int64_t>{1, 3}));
}

TEST(TopK, NanOrdersAboveNumbers) {
    auto r = runTopK<float>({4}, {1, kNan, 3, 2}, 2, 0, true);
    ASSERT_EQ(r.first.size(), 2u);
    EXPECT_TRUE(std::isnan(r.first[0]));
    EXPECT_EQ(r.first[1], 3.f);
    EXPECT_EQ(r.second, (std::vector<int64_t>{1, 2}));
    r = runTopK<float>({4}, {1, kNan, 3, 2}, 4, 0, false);
    EXPECT_EQ(r.second, (std::vector<int64_t>{0, 3, 2, 1}));
}

TEST(TopK, RandomMatchesSortReference) {
    const std::vector<int> dims = {3, 7, 2};
    auto x = randomFloats(42, 5, -3, 3);
    std::vector<int> shape;
    auto r = runTopK<float>(dims, x, 4, 1, true, &shape);
    EXPECT_EQ(shape, (std::vector<int>{3, 4, 2}));
    for (int a = 0; a < 3; ++a) {
        for (int c = 0; c < 2; ++c) {
            std::vector<std::pair<float, int>> v;
            for (int b = 0; b < 7; ++b) {
                v.push_back({x[(a * 7 + b) * 2 + c], b});
            }
            std::sort(v.begin(), v.end(), [](const std::pair<float, int>& p, const std::pair<float, int>& q) {
                return p.first > q.first || (p.first == q.first && p.second < q.second);
            });
            for (int j = 0; j < 4; ++j) {
                EXPECT_EQ(r.first[(a * 4 + j) * 2 + c], v[j].first);
                EXPECT_EQ(r.second[(a * 4 + j) * 2 + c], v[j].second);
            }
        }
    }
}

TEST(TopK, ZeroKAndErrors) {
    std::vector<int> shape;
    auto r = runTopK<float>({2, 3}, {1, 2, 3, 4, 5, 6}, 0, 1, true, &shape);
    EXPECT_EQ(shape, (std::vector<int>{2, 0}));
    EXPECT_EQ(r.first.size(), 0u);
    EXPECT_TRUE(createFails(topkModel({2, 3}, 4, 1, true), "topk", "K = 4"));
    EXPECT_TRUE(createFails(topkModel({2, 3}, -1, 1, true), "topk", "K = -1"));
    EXPECT_TRUE(createFails(topkModel({2, 3}, 1, 2, true), "topk", "out of range"));
    EXPECT_TRUE(createFails(topkModel({}, 1, 0, true), "topk", "out of range"));
}

// ---- CumSum ----

namespace {
std::vector<uint8_t> cumsumModel(const std::vector<int>& dims, int64_t axis, bool exclusive, bool reverse,
                                 Schema::DataType dt = Schema::DataType::DT_FLOAT, bool axisInt32 = false) {
    ModelBuilder mb;
    mb.input("x", dims, dt);
    if (axisInt32) {
        mb.constantInt32("axis", {}, {(int32_t)axis});
    } else {
        mb.constantInt64("axis", {}, {axis});
    }
    auto op = mb.op(Schema::OpType::CumSum, "cumsum", {"x", "axis"}, {"y"});
    Schema::AxisParamT p;
    p.exclusive = exclusive;
    p.reverse = reverse;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

template <typename T>
std::vector<T> runCumSum(const std::vector<int>& dims, const std::vector<T>& x, int64_t axis, bool exclusive,
                         bool reverse, bool axisInt32 = false) {
    auto model = cumsumModel(dims, axis, exclusive, reverse, dataTypeOf<T>(), axisInt32);
    auto in = makeTyped<T>(dims, x);
    auto r = runModel(model, {{"x", in.get()}});
    EXPECT_EQ(r.code, NO_ERROR);
    if (r.code != NO_ERROR) {
        return {};
    }
    EXPECT_EQ(shapeOf(r.outputs["y"].get()), dims);
    return valuesOf<T>(r.outputs["y"].get());
}
} // namespace

TEST(CumSum, GoldenOnnxExamples) {
    const std::vector<float> x = {1, 2, 3, 4, 5};
    EXPECT_EQ(runCumSum<float>({5}, x, 0, false, false), (std::vector<float>{1, 3, 6, 10, 15}));
    EXPECT_EQ(runCumSum<float>({5}, x, 0, true, false), (std::vector<float>{0, 1, 3, 6, 10}));
    EXPECT_EQ(runCumSum<float>({5}, x, 0, false, true), (std::vector<float>{15, 14, 12, 9, 5}));
    EXPECT_EQ(runCumSum<float>({5}, x, 0, true, true), (std::vector<float>{14, 12, 9, 5, 0}));
    const std::vector<float> m = {1, 2, 3, 4, 5, 6};
    EXPECT_EQ(runCumSum<float>({2, 3}, m, 0, false, false), (std::vector<float>{1, 2, 3, 5, 7, 9}));
    EXPECT_EQ(runCumSum<float>({2, 3}, m, 1, false, false), (std::vector<float>{1, 3, 6, 4, 9, 15}));
    EXPECT_EQ(runCumSum<float>({2, 3}, m, -1, false, false, true), (std::vector<float>{1, 3, 6, 4, 9, 15}));
    EXPECT_EQ(runCumSum<int32_t>({2, 2}, {1, -2, 3, 4}, 0, false, true), (std::vector<int32_t>{4, 2, 3, 4}));
    EXPECT_EQ(runCumSum<int64_t>({3}, {1LL << 40, 1, 2}, 0, true, false),
              (std::vector<int64_t>{0, 1LL << 40, (1LL << 40) + 1}));
    EXPECT_EQ(runCumSum<double>({3}, {0.5, 0.25, 1}, 0, false, false), (std::vector<double>{0.5, 0.75, 1.75}));
}

TEST(CumSum, NanPropagatesForward) {
    auto r = runCumSum<float>({3}, {1, kNan, 2}, 0, false, false);
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r[0], 1.f);
    EXPECT_TRUE(std::isnan(r[1]) && std::isnan(r[2]));
}

TEST(CumSum, ZeroSizeAndErrors) {
    EXPECT_EQ(runCumSum<float>({2, 0}, {}, 1, false, false).size(), 0u);
    EXPECT_EQ(runCumSum<float>({0, 3}, {}, 1, true, true).size(), 0u);
    EXPECT_TRUE(createFails(cumsumModel({2, 3}, 2, false, false), "cumsum", "out of range"));
    EXPECT_TRUE(createFails(cumsumModel({2, 3}, -3, false, false), "cumsum", "out of range"));
    EXPECT_TRUE(createFails(cumsumModel({}, 0, false, false), "cumsum", "out of range"));
}
