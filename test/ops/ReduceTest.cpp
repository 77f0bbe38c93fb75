#include <math.h>
#include <limits>
#include "OpTestHelpers.hpp"

using namespace MNN;
using namespace MNN::Test;
using Schema::ReduceType;

namespace {
const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

struct ReduceSpec {
    ReduceType type = ReduceType::SUM;
    std::vector<int> paramAxes;
    bool keepDims = true;
    bool noop = false;
    bool axesInput = false;           // give axes as an int64 constant input
    std::vector<int64_t> inputAxes;
    std::vector<int> inputAxesDims;   // default {size}
};

std::vector<uint8_t> reduceModel(const ReduceSpec& s, const std::vector<int>& dims,
                                 Schema::DataType dt = Schema::DataType::DT_FLOAT) {
    ModelBuilder mb;
    mb.input("x", dims, dt);
    std::vector<std::string> ins = {"x"};
    if (s.axesInput) {
        auto d = s.inputAxesDims.empty() ? std::vector<int>{(int)s.inputAxes.size()} : s.inputAxesDims;
        mb.constantInt64("axes", d, s.inputAxes);
        ins.push_back("axes");
    }
    auto op = mb.op(Schema::OpType::Reduce, "reduce", ins, {"y"});
    Schema::ReduceParamT p;
    p.type = s.type;
    p.axes = s.paramAxes;
    p.keepDims = s.keepDims;
    p.noopWithEmptyAxes = s.noop;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

template <typename T>
std::vector<T> runReduce(const ReduceSpec& s, const std::vector<int>& dims, const std::vector<T>& x,
                         std::vector<int>* outShape = nullptr) {
    auto model = reduceModel(s, dims, dataTypeOf<T>());
    auto in = makeTyped<T>(dims, x);
    auto r = runModel(model, {{"x", in.get()}});
    EXPECT_EQ(r.code, NO_ERROR);
    if (r.code != NO_ERROR) {
        return {};
    }
    if (outShape) {
        *outShape = shapeOf(r.outputs["y"].get());
    }
    return valuesOf<T>(r.outputs["y"].get());
}

ReduceSpec spec(ReduceType t, std::vector<int> axes, bool keep = true) {
    ReduceSpec s;
    s.type = t;
    s.paramAxes = axes;
    s.keepDims = keep;
    return s;
}
} // namespace

TEST(Reduce, GoldenEveryTypeOverLastAxis) {
    const std::vector<float> x = {1, 2, 3, 4, 5, 6};
    const std::vector<float> xs = {1, -2, 3, -4, 5, -6};
    std::vector<int> shape;
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::SUM, {1}), {2, 3}, x, &shape), {6, 15}));
    EXPECT_EQ(shape, (std::vector<int>{2, 1}));
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::MEAN, {1}), {2, 3}, x), {2, 5}));
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::MAXIMUM, {1}), {2, 3}, xs), {3, 5}));
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::MINIMUM, {1}), {2, 3}, xs), {-2, -6}));
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::PROD, {1}), {2, 3}, xs), {-6, 120}));
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::L1, {1}), {2, 3}, xs), {6, 15}));
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::L2, {1}), {2, 2}, {3, -4, 0, 5}), {5, 5}));
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::SUM_SQUARE, {1}), {2, 3}, xs), {14, 77}));
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::LOG_SUM, {1}), {2, 3}, x), {1.7917595f, 2.7080503f}));
    // log(e^1 + e^2 + e^3) = 3.4076059, log(e^4 + e^5 + e^6) = 6.4076059
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::LOG_SUM_EXP, {1}), {2, 3}, x), {3.4076059f, 6.4076059f}));
}

TEST(Reduce, GoldenAxesKeepDimsAndNegativeAxes) {
    const std::vector<float> x = {1, 2, 3, 4, 5, 6};
    std::vector<int> shape;
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::SUM, {0}, false), {2, 3}, x, &shape), {5, 7, 9}));
    EXPECT_EQ(shape, (std::vector<int>{3}));
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::SUM, {-2}, true), {2, 3}, x, &shape), {5, 7, 9}));
    EXPECT_EQ(shape, (std::vector<int>{1, 3}));
    // no axes: everything
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::SUM, {}, true), {2, 3}, x, &shape), {21}));
    EXPECT_EQ(shape, (std::vector<int>{1, 1}));
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::MAXIMUM, {0, 1}, false), {2, 3}, x, &shape), {6}));
    EXPECT_EQ(shape, (std::vector<int>{}));
    // [2,2,2] over axes 0 and 2
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::SUM, {2, 0}, false), {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8},
                                          &shape),
                         {1 + 2 + 5 + 6, 3 + 4 + 7 + 8}));
    EXPECT_EQ(shape, (std::vector<int>{2}));
}

TEST(Reduce, AxesFromInput) {
    ReduceSpec s;
    s.type = ReduceType::MEAN;
    s.axesInput = true;
    s.inputAxes = {-1};
    s.paramAxes = {0};  // the input wins
    std::vector<int> shape;
    EXPECT_TRUE(allClose(runReduce<float>(s, {2, 3}, {1, 2, 3, 4, 5, 6}, &shape), {2, 5}));
    EXPECT_EQ(shape, (std::vector<int>{2, 1}));
    // empty axes input: reduce all ...
    ReduceSpec all;
    all.type = ReduceType::SUM;
    all.axesInput = true;
    all.inputAxes = {};
    all.keepDims = false;
    EXPECT_TRUE(allClose(runReduce<float>(all, {2, 3}, {1, 2, 3, 4, 5, 6}, &shape), {21}));
    EXPECT_EQ(shape, (std::vector<int>{}));
    // ... or nothing with noopWithEmptyAxes
    all.noop = true;
    EXPECT_TRUE(allClose(runReduce<float>(all, {2, 3}, {1, 2, 3, 4, 5, 6}, &shape), {1, 2, 3, 4, 5, 6}));
    EXPECT_EQ(shape, (std::vector<int>{2, 3}));
}

TEST(Reduce, AxesFromGraphInputResolvedAtRun) {
    ModelBuilder mb;
    mb.input("x", {2, 3});
    mb.input("axes", {1}, Schema::DataType::DT_INT64);
    auto op = mb.op(Schema::OpType::Reduce, "reduce", {"x", "axes"}, {"y"});
    Schema::ReduceParamT p;
    p.type = ReduceType::SUM;
    p.keepDims = false;
    op->param.Set(p);
    mb.output("y");
    auto model = mb.finish();
    auto x = makeTensor({2, 3}, {1, 2, 3, 4, 5, 6});
    auto axes = makeTyped<int64_t>({1}, {0});
    auto r = runModel(model, {{"x", x.get()}, {"axes", axes.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(shapeOf(r.outputs["y"].get()), (std::vector<int>{3}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {5, 7, 9}));
}

TEST(Reduce, EmptySetGivesIdentity) {
    struct Case {
        ReduceType t;
        float v;
    } cases[] = {{ReduceType::SUM, 0},       {ReduceType::PROD, 1},         {ReduceType::MAXIMUM, -kInf},
                 {ReduceType::MINIMUM, kInf}, {ReduceType::L1, 0},           {ReduceType::L2, 0},
                 {ReduceType::SUM_SQUARE, 0}, {ReduceType::LOG_SUM, -kInf}, {ReduceType::LOG_SUM_EXP, -kInf},
                 {ReduceType::MEAN, kNan}};
    for (auto& c : cases) {
        SCOPED_TRACE(Schema::EnumNameReduceType(c.t));
        std::vector<int> shape;
        EXPECT_TRUE(allClose(runReduce<float>(spec(c.t, {1}), {2, 0}, {}, &shape), {c.v, c.v}));
        EXPECT_EQ(shape, (std::vector<int>{2, 1}));
    }
    EXPECT_EQ(runReduce<int32_t>(spec(ReduceType::MAXIMUM, {0}, false), {0}, {}), (std::vector<int32_t>{INT32_MIN}));
    EXPECT_EQ(runReduce<int64_t>(spec(ReduceType::MINIMUM, {0}, false), {0}, {}), (std::vector<int64_t>{INT64_MAX}));
    EXPECT_EQ(runReduce<int64_t>(spec(ReduceType::PROD, {0}, false), {0}, {}), (std::vector<int64_t>{1}));
    // zero-size kept dim: empty output
    std::vector<int> shape;
    EXPECT_EQ(runReduce<float>(spec(ReduceType::SUM, {1}), {0, 3}, {}, &shape).size(), 0u);
    EXPECT_EQ(shape, (std::vector<int>{0, 1}));
}

TEST(Reduce, RankZero) {
    std::vector<int> shape;
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::SUM_SQUARE, {}), {}, {-3}, &shape), {9}));
    EXPECT_EQ(shape, (std::vector<int>{}));
}

TEST(Reduce, NanAndInfinity) {
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::MAXIMUM, {0}), {3}, {1, kNan, 3}), {kNan}));
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::MINIMUM, {0}), {3}, {1, kNan, 3}), {kNan}));
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::SUM, {0}), {3}, {1, kNan, 3}), {kNan}));
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::LOG_SUM_EXP, {0}), {2}, {1, kInf}), {kInf}));
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::LOG_SUM_EXP, {0}), {2}, {-kInf, -kInf}), {-kInf}));
    // no overflow for large inputs: 1000 + ln 2
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::LOG_SUM_EXP, {0}), {2}, {1000, 1000}), {1000.6931472f}));
    EXPECT_TRUE(allClose(runReduce<float>(spec(ReduceType::MAXIMUM, {0}), {2}, {-kInf, 2}), {2}));
}

TEST(Reduce, IntegerTypes) {
    EXPECT_EQ(runReduce<int32_t>(spec(ReduceType::SUM, {1}), {2, 2}, {1, 2, -3, 4}), (std::vector<int32_t>{3, 1}));
    EXPECT_EQ(runReduce<int64_t>(spec(ReduceType::MAXIMUM, {0}), {2, 2}, {1, 7, -3, 4}), (std::vector<int64_t>{1, 7}));
    EXPECT_EQ(runReduce<int64_t>(spec(ReduceType::MINIMUM, {0}), {2, 2}, {1, 7, -3, 4}), (std::vector<int64_t>{-3, 4}));
    EXPECT_EQ(runReduce<int32_t>(spec(ReduceType::PROD, {1}), {2, 2}, {1, 2, -3, 4}), (std::vector<int32_t>{2, -12}));
    // mean truncates toward zero like numpy's mean(...).astype(int)
    EXPECT_EQ(runReduce<int32_t>(spec(ReduceType::MEAN, {1}), {2, 2}, {1, 2, -1, -2}), (std::vector<int32_t>{1, -1}));
    EXPECT_EQ(runReduce<int64_t>(spec(ReduceType::SUM, {0}), {2}, {1LL << 40, 3}),
              (std::vector<int64_t>{(1LL << 40) + 3}));
    EXPECT_EQ(runReduce<int32_t>(spec(ReduceType::L1, {0}), {2}, {-3, 4}), (std::vector<int32_t>{7}));
    EXPECT_EQ(runReduce<int32_t>(spec(ReduceType::SUM_SQUARE, {0}), {2}, {-3, 4}), (std::vector<int32_t>{25}));
}

TEST(Reduce, RandomMatchesIndexLoopReference) {
    const std::vector<int> dims = {3, 4, 5, 2};
    auto x = randomFloats(3 * 4 * 5 * 2, 42, 0.1f, 2.f);
    const ReduceType types[] = {ReduceType::SUM,    ReduceType::MEAN,       ReduceType::MAXIMUM,
                                ReduceType::MINIMUM, ReduceType::PROD,      ReduceType::L1,
                                ReduceType::L2,      ReduceType::LOG_SUM,   ReduceType::LOG_SUM_EXP,
                                ReduceType::SUM_SQUARE};
    for (auto t : types) {
        SCOPED_TRACE(Schema::EnumNameReduceType(t));
        // reduce axes 1 and 3 -> output [3, 5]
        std::vector<float> expect;
        for (int a = 0; a < 3; ++a) {
            for (int c = 0; c < 5; ++c) {
                std::vector<double> v;
                for (int b = 0; b < 4; ++b) {
                    for (int d = 0; d < 2; ++d) {
                        v.push_back(x[((a * 4 + b) * 5 + c) * 2 + d]);
                    }
                }
                double s = 0, p = 1, mx = -1e30, mn = 1e30, se = 0;
                for (auto e : v) {
                    s += e;
                    p *= e;
                    mx = std::max(mx, e);
                    mn = std::min(mn, e);
                    se += std::exp(e);
                }
                double sq = 0, l1 = 0;
                for (auto e : v) {
                    sq += e * e;
                    l1 += std::fabs(e);
                }
                double r = 0;
                switch (t) {
                    case ReduceType::SUM: r = s; break;
                    case ReduceType::MEAN: r = s / v.size(); break;
                    case ReduceType::MAXIMUM: r = mx; break;
                    case ReduceType::MINIMUM: r = mn; break;
                    case ReduceType::PROD: r = p; break;
                    case ReduceType::L1: r = l1; break;
                    case ReduceType::L2: r = std::sqrt(sq); break;
                    case ReduceType::LOG_SUM: r = std::log(s); break;
                    case ReduceType::LOG_SUM_EXP: r = std::log(se); break;
                    default: r = sq; break;
                }
                expect.push_back((float)r);
            }
        }
        std::vector<int> shape;
        EXPECT_TRUE(allClose(runReduce<float>(spec(t, {1, -1}, false), dims, x, &shape), expect, 1e-5f, 1e-5f));
        EXPECT_EQ(shape, (std::vector<int>{3, 5}));
    }
}

TEST(Reduce, BadInputsFailAtCreate) {
    EXPECT_TRUE(createFails(reduceModel(spec(ReduceType::SUM, {2}), {2, 3}), "reduce", "out of range"));
    EXPECT_TRUE(createFails(reduceModel(spec(ReduceType::SUM, {-3}), {2, 3}), "reduce", "out of range"));
    EXPECT_TRUE(createFails(reduceModel(spec(ReduceType::SUM, {1, -1}), {2, 3}), "reduce", "twice"));
    EXPECT_TRUE(createFails(reduceModel(spec(ReduceType::L2, {1}), {2, 3}, Schema::DataType::DT_INT32), "reduce",
                            "int32"));
    ReduceSpec s;
    s.axesInput = true;
    s.inputAxes = {0, 1};
    s.inputAxesDims = {1, 2};  // must be 1-D
    EXPECT_TRUE(createFails(reduceModel(s, {2, 3}), "reduce", "axes"));
}
