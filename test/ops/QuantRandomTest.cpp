// QuantizeLinear / DequantizeLinear (hand-computed goldens; round half to even, saturation,
// per-tensor / per-axis / blocked) and Random / Bernoulli (shape, dtype, range, sample statistics,
// determinism with a seed; exact values are generator-specific and not checked).
#include <math.h>
#include <functional>
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

template <typename T>
static void addConst(ModelBuilder& mb, const std::string& name, const std::vector<int>& dims, Schema::DataType type,
                     const std::vector<T>& v) {
    mb.constantRaw(name, dims, type, v.data(), v.size() * sizeof(T));
}

static std::vector<uint8_t> quantModel(Schema::OpType type, const std::vector<int>& xDims,
                                       const std::vector<std::string>& ins, int axis, int block,
                                       Schema::DataType outType, const std::function<void(ModelBuilder&)>& consts) {
    ModelBuilder mb;
    consts(mb);
    auto op = mb.op(type, "q", ins, {"y"});
    Schema::QuantParamT p;
    p.axis = axis;
    p.blockSize = block;
    p.outputType = outType;
    op->param.Set(p);
    mb.output("y");
    (void)xDims;
    return mb.finish();
}

TEST(QuantizeLinear, PerTensorUint8RoundsHalfToEvenAndSaturates) {
    auto model = quantModel(Schema::OpType::QuantizeLinear, {6}, {"x", "s", "z"}, 1, 0, Schema::DataType::DT_INVALID,
                            [](ModelBuilder& mb) {
                                mb.constant("x", {6}, {0, 2, 3, 1000, -254, -1000});
                                mb.constant("s", {}, {2});
                                addConst<uint8_t>(mb, "z", {}, Schema::DataType::DT_UINT8, {128});
                            });
    auto r = runModel(model, {});
    ASSERT_EQ(r.code, NO_ERROR);
    ASSERT_EQ(r.outputs["y"]->getType(), halide_type_of<uint8_t>());
    // 3/2 = 1.5 rounds to 2; -254/2 + 128 = 1
    EXPECT_EQ(values<uint8_t>(r.outputs["y"].get()), (std::vector<uint8_t>{128, 129, 130, 255, 1, 0}));
}

TEST(QuantizeLinear, Int8WithoutZeroPointViaOutputType) {
    auto model = quantModel(Schema::OpType::QuantizeLinear, {7}, {"x", "s"}, 1, 0, Schema::DataType::DT_INT8,
                            [](ModelBuilder& mb) {
                                mb.constant("x", {7}, {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, 200, -200});
                                mb.constant("s", {1}, {1});
                            });
    auto r = runModel(model, {});
    ASSERT_EQ(r.code, NO_ERROR);
    ASSERT_EQ(r.outputs["y"]->getType(), halide_type_of<int8_t>());
    EXPECT_EQ(values<int8_t>(r.outputs["y"].get()), (std::vector<int8_t>{0, 2, 2, 0, -2, 127, -128}));
}

TEST(QuantizeLinear, DefaultOutputIsUint8) {
    auto model = quantModel(Schema::OpType::QuantizeLinear, {3}, {"x", "s"}, 1, 0, Schema::DataType::DT_INVALID,
                            [](ModelBuilder& mb) {
                                mb.constant("x", {3}, {-1, 10, 300});
                                mb.constant("s", {}, {1});
                            });
    auto r = runModel(model, {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(values<uint8_t>(r.outputs["y"].get()), (std::vector<uint8_t>{0, 10, 255}));
}

TEST(QuantizeLinear, PerAxis) {
    auto model = quantModel(Schema::OpType::QuantizeLinear, {1, 3, 2}, {"x", "s", "z"}, 1, 0,
                            Schema::DataType::DT_INVALID, [](ModelBuilder& mb) {
                                mb.constant("x", {1, 3, 2}, {-1, 2, 4, 5, 8, 100});
                                mb.constant("s", {3}, {1, 2, 4});
                                addConst<uint8_t>(mb, "z", {3}, Schema::DataType::DT_UINT8, {0, 10, 20});
                            });
    auto r = runModel(model, {});
    ASSERT_EQ(r.code, NO_ERROR);
    // -1 -> 0 (saturated); 5/2 = 2.5 -> 2 (+10); 100/4 = 25 (+20)
    EXPECT_EQ(values<uint8_t>(r.outputs["y"].get()), (std::vector<uint8_t>{0, 2, 12, 12, 22, 45}));
}

TEST(QuantizeLinear, Blocked) {
    auto model = quantModel(Schema::OpType::QuantizeLinear, {2, 4}, {"x", "s"}, 1, 2, Schema::DataType::DT_INT8,
                            [](ModelBuilder& mb) {
                                mb.constant("x", {2, 4}, {1, 2, 3, -4, 4, 8, 16, -24});
                                mb.constant("s", {2, 2}, {1, 2, 4, 8});
                            });
    auto r = runModel(model, {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(values<int8_t>(r.outputs["y"].get()), (std::vector<int8_t>{1, 2, 2, -2, 1, 2, 2, -3}));
}

TEST(QuantizeLinear, MismatchedScaleFailsAtCreate) {
    auto model = quantModel(Schema::OpType::QuantizeLinear, {2, 4}, {"x", "s"}, 1, 0, Schema::DataType::DT_INVALID,
                            [](ModelBuilder& mb) {
                                mb.input("x", {2, 4});
                                mb.constant("s", {3}, {1, 2, 3});
                            });
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ASSERT_NE(net, nullptr);
    ScheduleConfig config;
    EXPECT_EQ(net->createSession(config), nullptr);
}

TEST(DequantizeLinear, PerTensorUint8) {
    auto model = quantModel(Schema::OpType::DequantizeLinear, {4}, {"x", "s", "z"}, 1, 0,
                            Schema::DataType::DT_INVALID, [](ModelBuilder& mb) {
                                addConst<uint8_t>(mb, "x", {4}, Schema::DataType::DT_UINT8, {0, 3, 128, 255});
                                mb.constant("s", {}, {2});
                                addConst<uint8_t>(mb, "z", {}, Schema::DataType::DT_UINT8, {128});
                            });
    auto r = runModel(model, {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-256, -250, 0, 254}));
}

TEST(DequantizeLinear, PerAxisInt8AndInt32) {
    auto model = quantModel(Schema::OpType::DequantizeLinear, {1, 3, 2}, {"x", "s", "z"}, -2, 0,
                            Schema::DataType::DT_INVALID, [](ModelBuilder& mb) {
                                addConst<int8_t>(mb, "x", {1, 3, 2}, Schema::DataType::DT_INT8, {-1, 2, 3, 4, 5, 6});
                                mb.constant("s", {3}, {1, 2, 4});
                                addConst<int8_t>(mb, "z", {3}, Schema::DataType::DT_INT8, {0, 1, -2});
                            });
    auto r = runModel(model, {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-1, 2, 4, 6, 28, 32}));
    model = quantModel(Schema::OpType::DequantizeLinear, {2}, {"x", "s"}, 1, 0, Schema::DataType::DT_INVALID,
                       [](ModelBuilder& mb) {
                           addConst<int32_t>(mb, "x", {2}, Schema::DataType::DT_INT32, {-3, 1000000});
                           mb.constant("s", {}, {0.5f});
                       });
    r = runModel(model, {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-1.5f, 500000}));
}

TEST(DequantizeLinear, Blocked) {
    auto model = quantModel(Schema::OpType::DequantizeLinear, {2, 4}, {"x", "s"}, 1, 2, Schema::DataType::DT_INVALID,
                            [](ModelBuilder& mb) {
                                addConst<int8_t>(mb, "x", {2, 4}, Schema::DataType::DT_INT8, {1, 2, 3, 4, 1, 2, 3, 4});
                                mb.constant("s", {2, 2}, {1, 2, 4, 8});
                            });
    auto r = runModel(model, {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1, 2, 6, 8, 4, 8, 24, 32}));
}

// ---- Random / Bernoulli ----
static std::vector<uint8_t> randomModel(bool normal, const std::vector<int64_t>& shape, float seed, bool hasSeed,
                                        float a, float b, bool like = false,
                                        Schema::DataType dtype = Schema::DataType::DT_FLOAT) {
    ModelBuilder mb;
    if (like) {
        mb.input("x", {3, 4});
    }
    auto op = mb.op(Schema::OpType::Random, "r", like ? std::vector<std::string>{"x"} : std::vector<std::string>{},
                    {"y"});
    Schema::RandomParamT p;
    p.normal = normal;
    p.dtype = dtype;
    p.shape = shape;
    p.seed = seed;
    p.hasSeed = hasSeed;
    if (normal) {
        p.mean = a;
        p.scale = b;
    } else {
        p.low = a;
        p.high = b;
    }
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

static void moments(const Tensor* t, double* mean, double* var) {
    const int n = t->elementSize();
    double s = 0, s2 = 0;
    for (int i = 0; i < n; ++i) {
        s += t->host<float>()[i];
    }
    *mean = s / n;
    for (int i = 0; i < n; ++i) {
        const double d = t->host<float>()[i] - *mean;
        s2 += d * d;
    }
    *var = s2 / n;
}

TEST(Random, UniformRangeAndMoments) {
    auto r = runModel(randomModel(false, {200, 500}, 5, true, -2, 3), {});
    ASSERT_EQ(r.code, NO_ERROR);
    auto y = r.outputs["y"].get();
    ASSERT_EQ(y->getType(), halide_type_of<float>());
    ASSERT_EQ(y->dimensions(), 2);
    EXPECT_EQ(y->length(0), 200);
    EXPECT_EQ(y->length(1), 500);
    for (int i = 0; i < y->elementSize(); ++i) {
        ASSERT_GE(y->host<float>()[i], -2.0f);
        ASSERT_LE(y->host<float>()[i], 3.0f);
    }
    double m, v;
    moments(y, &m, &v);
    EXPECT_NEAR(m, 0.5, 0.03);           // standard error ~0.0046
    EXPECT_NEAR(v, 25.0 / 12.0, 0.05);   // (high-low)^2 / 12
}

TEST(Random, NormalMoments) {
    auto r = runModel(randomModel(true, {100000}, 7, true, 1, 2), {});
    ASSERT_EQ(r.code, NO_ERROR);
    double m, v;
    moments(r.outputs["y"].get(), &m, &v);
    EXPECT_NEAR(m, 1.0, 0.04); // standard error ~0.0063
    EXPECT_NEAR(v, 4.0, 0.12);
    // about 68.3% within one standard deviation
    auto y = r.outputs["y"].get();
    int inside = 0;
    for (int i = 0; i < y->elementSize(); ++i) {
        inside += fabs(y->host<float>()[i] - 1.0) < 2.0 ? 1 : 0;
    }
    EXPECT_NEAR(inside / 100000.0, 0.6827, 0.01);
}

TEST(Random, SeedIsDeterministic) {
    auto a = runModel(randomModel(true, {64}, 3, true, 0, 1), {});
    auto b = runModel(randomModel(true, {64}, 3, true, 0, 1), {});
    auto c = runModel(randomModel(true, {64}, 4, true, 0, 1), {});
    ASSERT_EQ(a.code, NO_ERROR);
    ASSERT_EQ(c.code, NO_ERROR);
    auto va = values<float>(a.outputs["y"].get());
    EXPECT_EQ(va, values<float>(b.outputs["y"].get()));
    EXPECT_NE(va, values<float>(c.outputs["y"].get()));
}

TEST(Random, LikeTakesInputShapeAndTypeOrDtype) {
    auto x = makeTensor({3, 4}, std::vector<float>(12, 0));
    auto r = runModel(randomModel(false, {}, 1, true, 10, 11, true, Schema::DataType::DT_INVALID), {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    auto y = r.outputs["y"].get();
    ASSERT_EQ(y->getType(), halide_type_of<float>());
    ASSERT_EQ(y->elementSize(), 12);
    EXPECT_EQ(y->length(0), 3);
    for (int i = 0; i < 12; ++i) {
        EXPECT_GE(y->host<float>()[i], 10.0f);
        EXPECT_LE(y->host<float>()[i], 11.0f);
    }
    r = runModel(randomModel(true, {}, 1, true, 0, 1, true, Schema::DataType::DT_DOUBLE), {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->getType(), halide_type_of<double>());
    EXPECT_EQ(r.outputs["y"]->elementSize(), 12);
}

TEST(Random, IntegerDtypeFailsAtCreate) {
    auto model = randomModel(false, {4}, 1, true, 0, 1, false, Schema::DataType::DT_INT32);
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    ASSERT_NE(net, nullptr);
    ScheduleConfig config;
    EXPECT_EQ(net->createSession(config), nullptr);
}

static std::vector<uint8_t> bernoulliModel(int n, Schema::DataType dtype, float seed) {
    ModelBuilder mb;
    mb.input("p", {n});
    auto op = mb.op(Schema::OpType::Bernoulli, "b", {"p"}, {"y"});
    Schema::RandomParamT p;
    p.dtype = dtype;
    p.seed = seed;
    p.hasSeed = true;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

TEST(Bernoulli, ExtremesAndRate) {
    const int n = 60000;
    std::vector<float> pv(n);
    for (int i = 0; i < n; ++i) {
        pv[i] = i < 10000 ? 0.0f : (i < 20000 ? 1.0f : 0.3f);
    }
    auto p = makeTensor({n}, pv);
    auto r = runModel(bernoulliModel(n, Schema::DataType::DT_INVALID, 11), {{"p", p.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    auto y = r.outputs["y"].get();
    ASSERT_EQ(y->getType(), halide_type_of<float>());
    int ones = 0;
    for (int i = 0; i < n; ++i) {
        const float v = y->host<float>()[i];
        ASSERT_TRUE(v == 0.0f || v == 1.0f);
        if (i < 10000) {
            ASSERT_EQ(v, 0.0f);
        } else if (i < 20000) {
            ASSERT_EQ(v, 1.0f);
        } else {
            ones += (int)v;
        }
    }
    EXPECT_NEAR(ones / 40000.0, 0.3, 0.015); // standard error ~0.0023
    auto again = runModel(bernoulliModel(n, Schema::DataType::DT_INVALID, 11), {{"p", p.get()}});
    EXPECT_EQ(values<float>(y), values<float>(again.outputs["y"].get()));
}

TEST(Bernoulli, IntegerDtype) {
    auto p = makeTensor({4}, {0, 1, 1, 0});
    auto r = runModel(bernoulliModel(4, Schema::DataType::DT_INT32, 2), {{"p", p.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    ASSERT_EQ(r.outputs["y"]->getType(), halide_type_of<int32_t>());
    EXPECT_EQ(values<int32_t>(r.outputs["y"].get()), (std::vector<int32_t>{0, 1, 1, 0}));
}
