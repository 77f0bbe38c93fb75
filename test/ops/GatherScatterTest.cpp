// Gather, GatherElements, GatherND, ScatterND, ScatterElements (examples from the ONNX operator
// docs, computed by hand, plus negative / out-of-range indices and zero-size shapes).
#include "DataOpTestUtil.hpp"

using namespace MNN;
using namespace MNN::Test;

static void axisParam(Schema::OpT* op, int axis, int batchDims = 0, int reduction = 0) {
    Schema::AxisParamT p;
    p.axis = axis;
    p.batchDims = batchDims;
    p.reduction = reduction;
    op->param.Set(p);
}

TEST(Gather, GoldenAxis0Int64Indices) {
    OpModel m;
    m.input<float>("d", {3, 2}, {1, 2, 3, 4, 5, 6});
    m.constant<int64_t>("i", {2, 2}, {0, 1, 1, 2});
    axisParam(m.op(Schema::OpType::Gather, {"d", "i"}, {"y"}), 0);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 2, 2}));
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{1, 2, 3, 4, 3, 4, 5, 6}));
}

TEST(Gather, GoldenNegativeAxisAndIndicesInt32) {
    OpModel m;
    m.input<int16_t>("d", {2, 3}, {1, 2, 3, 4, 5, 6});
    m.constant<int32_t>("i", {2}, {-1, 0});
    axisParam(m.op(Schema::OpType::Gather, {"d", "i"}, {"y"}), -1);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(dimsOf(r.outputs["y"].get()), (std::vector<int>{2, 2}));
    EXPECT_EQ(valuesOf<int16_t>(r.outputs["y"].get()), (std::vector<int16_t>{3, 1, 6, 4}));
}

TEST(Gather, Rank0IndexAndZeroSizeIndices) {
    OpModel m;
    m.input<int64_t>("d", {3}, {10, 20, 30});
    m.constant<int64_t>("i", {}, {2});
    m.constant<int64_t>("e", {0}, {});
    axisParam(m.op(Schema::OpType::Gather, {"d", "i"}, {"y"}), 0);
    axisParam(m.op(Schema::OpType::Gather, {"d", "e"}, {"z"}), 0);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->dimensions(), 0);
    EXPECT_EQ(valuesOf<int64_t>(r.outputs["y"].get()), (std::vector<int64_t>{30}));
    EXPECT_EQ(dimsOf(r.outputs["z"].get()), (std::vector<int>{0}));
}

TEST(Gather, OutOfRangeIndexIsInputDataError) {
    for (int64_t bad : std::vector<int64_t>{3, -4, (int64_t)1 << 40}) {
        OpModel m;
        m.input<float>("d", {3}, {1, 2, 3});
        m.input<int64_t>("i", {2}, {0, bad});
        axisParam(m.op(Schema::OpType::Gather, {"d", "i"}, {"y"}), 0);
        ::testing::internal::CaptureStderr();
        auto r = m.run();
        auto log = ::testing::internal::GetCapturedStderr();
        EXPECT_EQ(r.code, INPUT_DATA_ERROR) << bad;
        EXPECT_NE(log.find("out of range"), std::string::npos) << log;
    }
}

TEST(Gather, InvalidFailAtCreate) {
    OpModel m;
    m.input<float>("d", {3}, {1, 2, 3});
    m.constant<float>("i", {1}, {0});
    axisParam(m.op(Schema::OpType::Gather, {"d", "i"}, {"y"}), 0);
    EXPECT_TRUE(m.createFails("int32 or int64"));
    OpModel a;
    a.input<float>("d", {3}, {1, 2, 3});
    a.constant<int64_t>("i", {1}, {0});
    axisParam(a.op(Schema::OpType::Gather, {"d", "i"}, {"y"}), 1);
    EXPECT_TRUE(a.createFails("axis 1 out of range"));
}

TEST(GatherElements, GoldenBothAxesAndNegative) {
    OpModel m;
    m.input<float>("a", {2, 2}, {1, 2, 3, 4});
    m.constant<int64_t>("ia", {2, 2}, {0, 0, 1, 0});
    axisParam(m.op(Schema::OpType::GatherElements, {"a", "ia"}, {"y"}), 1);
    m.input<int32_t>("b", {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    m.constant<int32_t>("ib", {2, 3}, {-1, -2, 0, -2, 0, 0});
    axisParam(m.op(Schema::OpType::GatherElements, {"b", "ib"}, {"z"}), 0);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{1, 1, 4, 3}));
    EXPECT_EQ(dimsOf(r.outputs["z"].get()), (std::vector<int>{2, 3}));
    EXPECT_EQ(valuesOf<int32_t>(r.outputs["z"].get()), (std::vector<int32_t>{7, 5, 3, 4, 2, 3}));
}

TEST(GatherElements, OutOfRangeAndBadShape) {
    OpModel m;
    m.input<float>("a", {2, 2}, {1, 2, 3, 4});
    m.input<int64_t>("i", {1, 2}, {0, 2});
    axisParam(m.op(Schema::OpType::GatherElements, {"a", "i"}, {"y"}), 1);
    EXPECT_EQ(m.run().code, INPUT_DATA_ERROR);

    OpModel b;
    b.input<float>("a", {2, 2}, {1, 2, 3, 4});
    b.constant<int64_t>("i", {3, 1}, {0, 0, 0});
    axisParam(b.op(Schema::OpType::GatherElements, {"a", "i"}, {"y"}), 1);
    EXPECT_TRUE(b.createFails("exceeds data"));
}

static RunResult gatherND(const std::vector<int>& dd, const std::vector<int>& id, const std::vector<int64_t>& idx,
                          int batchDims) {
    OpModel m;
    int n = 1;
    for (auto d : dd) {
        n *= d;
    }
    std::vector<int32_t> data(n);
    for (int i = 0; i < n; ++i) {
        data[i] = i;
    }
    m.input<int32_t>("d", dd, data);
    m.constant<int64_t>("i", id, idx);
    axisParam(m.op(Schema::OpType::GatherND, {"d", "i"}, {"y"}), 0, batchDims);
    return m.run();
}

TEST(GatherND, GoldenOnnxExamples) {
    auto a = gatherND({2, 2}, {2, 2}, {0, 0, 1, 1}, 0);
    ASSERT_EQ(a.code, NO_ERROR);
    EXPECT_EQ(valuesOf<int32_t>(a.outputs["y"].get()), (std::vector<int32_t>{0, 3}));
    auto b = gatherND({2, 2}, {2, 1}, {1, 0}, 0);
    ASSERT_EQ(b.code, NO_ERROR);
    EXPECT_EQ(dimsOf(b.outputs["y"].get()), (std::vector<int>{2, 2}));
    EXPECT_EQ(valuesOf<int32_t>(b.outputs["y"].get()), (std::vector<int32_t>{2, 3, 0, 1}));
    auto c = gatherND({2, 2, 2}, {2, 1, 2}, {0, 1, 1, 0}, 0);
    ASSERT_EQ(c.code, NO_ERROR);
    EXPECT_EQ(dimsOf(c.outputs["y"].get()), (std::vector<int>{2, 1, 2}));
    EXPECT_EQ(valuesOf<int32_t>(c.outputs["y"].get()), (std::vector<int32_t>{2, 3, 4, 5}));
    auto d = gatherND({2, 2, 2}, {2, 1}, {1, 0}, 1);
    ASSERT_EQ(d.code, NO_ERROR);
    EXPECT_EQ(dimsOf(d.outputs["y"].get()), (std::vector<int>{2, 2}));
    EXPECT_EQ(valuesOf<int32_t>(d.outputs["y"].get()), (std::vector<int32_t>{2, 3, 4, 5}));
    auto e = gatherND({2, 2}, {1, 2}, {-1, -2}, 0);
    ASSERT_EQ(e.code, NO_ERROR);
    EXPECT_EQ(valuesOf<int32_t>(e.outputs["y"].get()), (std::vector<int32_t>{2}));
    auto z = gatherND({2, 2}, {0, 1}, {}, 0);
    ASSERT_EQ(z.code, NO_ERROR);
    EXPECT_EQ(dimsOf(z.outputs["y"].get()), (std::vector<int>{0, 2}));
}

TEST(GatherND, ErrorsAtCreateAndRun) {
    EXPECT_EQ(gatherND({2, 2}, {1, 2}, {0, 2}, 0).code, INPUT_DATA_ERROR);
    OpModel m;
    m.input<float>("d", {2, 2}, {0, 1, 2, 3});
    m.constant<int64_t>("i", {1, 3}, {0, 0, 0});
    axisParam(m.op(Schema::OpType::GatherND, {"d", "i"}, {"y"}), 0);
    EXPECT_TRUE(m.createFails("indices last dim 3"));
    OpModel b;
    b.input<float>("d", {2, 2}, {0, 1, 2, 3});
    b.constant<int64_t>("i", {3, 1}, {0, 0, 0});
    axisParam(b.op(Schema::OpType::GatherND, {"d", "i"}, {"y"}), 0, 1);
    EXPECT_TRUE(b.createFails("batch dim 0 differs"));
}

static std::vector<int32_t> scatterND(const std::vector<int32_t>& data, const std::vector<int>& id,
                                      const std::vector<int64_t>& idx, const std::vector<int>& ud,
                                      const std::vector<int32_t>& upd, int reduction, int* code) {
    OpModel m;
    m.input<int32_t>("d", {(int)data.size()}, data);
    m.input<int64_t>("i", id, idx);
    m.input<int32_t>("u", ud, upd);
    axisParam(m.op(Schema::OpType::ScatterND, {"d", "i", "u"}, {"y"}), 0, 0, reduction);
    auto r = m.run();
    *code = r.code;
    return r.code == NO_ERROR ? valuesOf<int32_t>(r.outputs["y"].get()) : std::vector<int32_t>{};
}

TEST(ScatterND, GoldenAndReductions) {
    int code = 0;
    EXPECT_EQ(scatterND({1, 2, 3, 4, 5, 6, 7, 8}, {4, 1}, {4, 3, 1, 7}, {4}, {9, 10, 11, 12}, 0, &code),
              (std::vector<int32_t>{1, 11, 3, 10, 9, 6, 7, 12}));
    EXPECT_EQ(code, NO_ERROR);
    EXPECT_EQ(scatterND({1, 2, 3, 4}, {3, 1}, {0, 0, -2}, {3}, {10, 20, 30}, 1, &code),
              (std::vector<int32_t>{31, 2, 33, 4}));
    EXPECT_EQ(scatterND({1, 2, 3, 4}, {3, 1}, {0, 0, 2}, {3}, {10, 20, 30}, 2, &code),
              (std::vector<int32_t>{200, 2, 90, 4}));
    EXPECT_EQ(scatterND({1, 2, 3, 4}, {2, 1}, {0, 1}, {2}, {0, 5}, 3, &code), (std::vector<int32_t>{1, 5, 3, 4}));
    EXPECT_EQ(scatterND({1, 2, 3, 4}, {2, 1}, {0, 1}, {2}, {0, 5}, 4, &code), (std::vector<int32_t>{0, 2, 3, 4}));
    scatterND({1, 2, 3, 4}, {1, 1}, {4}, {1}, {0}, 0, &code);
    EXPECT_EQ(code, INPUT_DATA_ERROR);
}

TEST(ScatterND, SliceUpdatesAndBadShapes) {
    OpModel m;
    m.input<float>("d", {2, 2}, {1, 2, 3, 4});
    m.constant<int64_t>("i", {1, 1}, {1});
    m.constant<float>("u", {1, 2}, {7, 8});
    m.op(Schema::OpType::ScatterND, {"d", "i", "u"}, {"y"});
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()), (std::vector<float>{1, 2, 7, 8}));

    OpModel b;
    b.input<float>("d", {2, 2}, {1, 2, 3, 4});
    b.constant<int64_t>("i", {1, 1}, {1});
    b.constant<float>("u", {2}, {7, 8});
    b.op(Schema::OpType::ScatterND, {"d", "i", "u"}, {"y"});
    EXPECT_TRUE(b.createFails("expected 1x2"));

    OpModel c;
    c.input<float>("d", {2}, {1, 2});
    c.constant<int64_t>("i", {1, 1}, {1});
    c.constant<float>("u", {1}, {7});
    axisParam(c.op(Schema::OpType::ScatterND, {"d", "i", "u"}, {"y"}), 0, 0, 7);
    EXPECT_TRUE(c.createFails("reduction 7"));
}

TEST(ScatterElements, GoldenOnnxExamples) {
    OpModel m;
    m.input<float>("d", {3, 3}, std::vector<float>(9, 0.0f));
    m.constant<int64_t>("i", {2, 3}, {1, 0, 2, 0, 2, 1});
    m.constant<float>("u", {2, 3}, {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f});
    axisParam(m.op(Schema::OpType::ScatterElements, {"d", "i", "u"}, {"y"}), 0);
    m.input<int32_t>("e", {1, 5}, {1, 2, 3, 4, 5});
    m.constant<int32_t>("j", {1, 2}, {1, -3});
    m.constant<int32_t>("v", {1, 2}, {11, 21});
    axisParam(m.op(Schema::OpType::ScatterElements, {"e", "j", "v"}, {"z"}), 1);
    m.constant<int32_t>("k", {1, 2}, {1, 1});
    axisParam(m.op(Schema::OpType::ScatterElements, {"e", "k", "v"}, {"w"}), -1, 0, 1);
    auto r = m.run();
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(r.outputs["y"].get()),
              (std::vector<float>{2.0f, 1.1f, 0, 1.0f, 0, 2.2f, 0, 2.1f, 1.2f}));
    EXPECT_EQ(valuesOf<int32_t>(r.outputs["z"].get()), (std::vector<int32_t>{1, 11, 21, 4, 5}));
    EXPECT_EQ(valuesOf<int32_t>(r.outputs["w"].get()), (std::vector<int32_t>{1, 34, 3, 4, 5}));
}

TEST(ScatterElements, OutOfRangeAndBadShapes) {
    OpModel m;
    m.input<float>("d", {1, 3}, {1, 2, 3});
    m.input<int64_t>("i", {1, 1}, {-4});
    m.input<float>("u", {1, 1}, {9});
    axisParam(m.op(Schema::OpType::ScatterElements, {"d", "i", "u"}, {"y"}), 1);
    EXPECT_EQ(m.run().code, INPUT_DATA_ERROR);

    OpModel b;
    b.input<float>("d", {1, 3}, {1, 2, 3});
    b.constant<int64_t>("i", {1, 2}, {0, 1});
    b.constant<float>("u", {1, 1}, {9});
    axisParam(b.op(Schema::OpType::ScatterElements, {"d", "i", "u"}, {"y"}), 1);
    EXPECT_TRUE(b.createFails("differs from indices shape"));

    OpModel c;
    c.input<float>("d", {1, 3}, {1, 2, 3});
    c.constant<int64_t>("i", {1, 1}, {0});
    c.constant<int32_t>("u", {1, 1}, {9});
    axisParam(c.op(Schema::OpType::ScatterElements, {"d", "i", "u"}, {"y"}), 1);
    EXPECT_TRUE(c.createFails("updates type"));
}
