// Unique (ONNX semantics: sorted / first-occurrence order, flattened or along an axis) and Det.
// Golden values are hand-computed (the Unique cases are the ONNX operator documentation examples).
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

template <typename T>
static std::vector<T> values(const Tensor* t) {
    std::vector<T> v(t->elementSize());
    for (size_t i = 0; i < v.size(); ++i) {
        v[i] = t->host<T>()[i];
    }
    return v;
}

static std::vector<int> dims(const Tensor* t) {
    std::vector<int> d;
    for (int i = 0; i < t->dimensions(); ++i) {
        d.push_back(t->length(i));
    }
    return d;
}

static std::vector<uint8_t> uniqueModel(const std::vector<int>& shape, const std::vector<float>& data, bool sorted,
                                        bool hasAxis, int axis, bool asInput = false) {
    ModelBuilder mb;
    if (asInput) {
        mb.input("x", shape);
    } else {
        mb.constant("x", shape, data);
    }
    auto op = mb.op(Schema::OpType::Unique, "u", {"x"}, {"y", "idx", "inv", "cnt"});
    Schema::AxisParamT p;
    if (hasAxis) {
        p.axis = axis;
        p.axes = {axis};
    }
    p.exclusive = !sorted;
    op->param.Set(p);
    for (auto n : {"y", "idx", "inv", "cnt"}) {
        mb.output(n);
    }
    return mb.finish();
}

TEST(Unique, NotSortedFlattenedKeepsFirstOccurrenceOrder) {
    auto r = runModel(uniqueModel({6}, {2, 1, 1, 3, 4, 3}, false, false, 0), {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {2, 1, 3, 4}));
    EXPECT_EQ(values<int64_t>(r.outputs["idx"].get()), (std::vector<int64_t>{0, 1, 3, 4}));
    EXPECT_EQ(values<int64_t>(r.outputs["inv"].get()), (std::vector<int64_t>{0, 1, 1, 2, 3, 2}));
    EXPECT_EQ(values<int64_t>(r.outputs["cnt"].get()), (std::vector<int64_t>{1, 2, 2, 1}));
}

TEST(Unique, SortedFlattenedFromRank2) {
    auto r = runModel(uniqueModel({2, 3}, {2, 1, 1, 3, 4, 3}, true, false, 0), {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dims(r.outputs["y"].get()), (std::vector<int>{4}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1, 2, 3, 4}));
    EXPECT_EQ(values<int64_t>(r.outputs["idx"].get()), (std::vector<int64_t>{1, 0, 3, 4}));
    EXPECT_EQ(values<int64_t>(r.outputs["inv"].get()), (std::vector<int64_t>{1, 0, 0, 2, 3, 2}));
    EXPECT_EQ(values<int64_t>(r.outputs["cnt"].get()), (std::vector<int64_t>{2, 1, 2, 1}));
}

TEST(Unique, SortedAxis0Rows) {
    auto r = runModel(uniqueModel({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 4}, true, true, 0), {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dims(r.outputs["y"].get()), (std::vector<int>{2, 3}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1, 0, 0, 2, 3, 4}));
    EXPECT_EQ(values<int64_t>(r.outputs["idx"].get()), (std::vector<int64_t>{0, 2}));
    EXPECT_EQ(values<int64_t>(r.outputs["inv"].get()), (std::vector<int64_t>{0, 0, 1}));
    EXPECT_EQ(values<int64_t>(r.outputs["cnt"].get()), (std::vector<int64_t>{2, 1}));
}

TEST(Unique, SortedMiddleAxisComparesWholeSlices) {
    // X [2,4,2]; the slices along axis 1 are (1,1,1,1) (0,1,0,1) (2,1,2,1) (0,1,0,1)
    std::vector<float> x = {1, 1, 0, 1, 2, 1, 0, 1, 1, 1, 0, 1, 2, 1, 0, 1};
    auto r = runModel(uniqueModel({2, 4, 2}, x, true, true, 1), {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dims(r.outputs["y"].get()), (std::vector<int>{2, 3, 2}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0, 1, 1, 1, 2, 1, 0, 1, 1, 1, 2, 1}));
    EXPECT_EQ(values<int64_t>(r.outputs["idx"].get()), (std::vector<int64_t>{1, 0, 2}));
    EXPECT_EQ(values<int64_t>(r.outputs["inv"].get()), (std::vector<int64_t>{1, 0, 2, 0}));
    EXPECT_EQ(values<int64_t>(r.outputs["cnt"].get()), (std::vector<int64_t>{2, 1, 1}));
}

TEST(Unique, NotSortedNegativeAxis) {
    auto r = runModel(uniqueModel({3, 2}, {3, 1, 1, 2, 3, 1}, false, true, -2), {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {3, 1, 1, 2}));
    EXPECT_EQ(values<int64_t>(r.outputs["idx"].get()), (std::vector<int64_t>{0, 1}));
    EXPECT_EQ(values<int64_t>(r.outputs["inv"].get()), (std::vector<int64_t>{0, 1, 0}));
    EXPECT_EQ(values<int64_t>(r.outputs["cnt"].get()), (std::vector<int64_t>{2, 1}));
}

TEST(Unique, GraphInputResolvedAtRunAndOnValueChange) {
    auto model = uniqueModel({5}, {}, true, false, 0, true);
    auto a = makeTensor({5}, {5, 5, 5, 1, 5});
    auto r = runModel(model, {{"x", a.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1, 5}));
    EXPECT_EQ(values<int64_t>(r.outputs["cnt"].get()), (std::vector<int64_t>{1, 4}));
    auto b = makeTensor({5}, {4, 3, 2, 1, 0});
    r = runModel(model, {{"x", b.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0, 1, 2, 3, 4}));
    EXPECT_EQ(values<int64_t>(r.outputs["idx"].get()), (std::vector<int64_t>{4, 3, 2, 1, 0}));
}

TEST(Unique, EmptyInputGivesEmptyOutputs) {
    auto r = runModel(uniqueModel({0, 3}, {}, true, false, 0), {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->elementSize(), 0);
    EXPECT_EQ(r.outputs["inv"]->elementSize(), 0);
}

TEST(Unique, AxisOutOfRangeFailsAtCreate) {
    auto model = uniqueModel({2, 2}, {1, 2, 3, 4}, true, true, 2);
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ASSERT_NE(net, nullptr);
    ScheduleConfig config;
    EXPECT_EQ(net->createSession(config), nullptr);
}

static std::vector<uint8_t> detModel(const std::vector<int>& shape) {
    ModelBuilder mb;
    mb.input("x", shape);
    mb.op(Schema::OpType::Det, "det", {"x"}, {"y"});
    mb.output("y");
    return mb.finish();
}

TEST(Det, Golden2x2And3x3) {
    auto x = makeTensor({2, 2}, {1, 2, 3, 4});
    auto r = runModel(detModel({2, 2}), {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->dimensions(), 0);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-2}));
    // 1*(50-48) - 2*(40-42) + 3*(32-35) = -3
    auto y = makeTensor({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 10});
    r = runModel(detModel({3, 3}), {{"x", y.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-3}));
}

TEST(Det, BatchedWithPivotingAndSingular) {
    // [[1,2],[3,4]] -> -2; [[0,1],[1,0]] needs a row swap -> -1; [[1,2],[2,4]] singular -> 0;
    // [[0,0,1],[0,2,0],[3,0,0]] needs swaps: -6
    auto x = makeTensor({3, 2, 2}, {1, 2, 3, 4, 0, 1, 1, 0, 1, 2, 2, 4});
    auto r = runModel(detModel({3, 2, 2}), {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dims(r.outputs["y"].get()), (std::vector<int>{3}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-2, -1, 0}));
    auto z = makeTensor({1, 3, 3}, {0, 0, 1, 0, 2, 0, 3, 0, 0});
    r = runModel(detModel({1, 3, 3}), {{"x", z.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-6}));
}

TEST(Det, EmptyBatchAndNonSquareFails) {
    auto x = makeTensor({0, 2, 2}, {});
    auto r = runModel(detModel({0, 2, 2}), {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->elementSize(), 0);
    auto model = detModel({2, 3});
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ASSERT_NE(net, nullptr);
    ScheduleConfig config;
    EXPECT_EQ(net->createSession(config), nullptr);
}
