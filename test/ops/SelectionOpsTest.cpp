// Where, variadic Mean (Sum / Mean / Max / Min), Trilu, Identity, Dropout, EyeLike.
#include <math.h>
#include <limits>
#include "OpTestHelpers.hpp"

using namespace MNN;
using namespace MNN::Test;
using Schema::DataType;

namespace {
const float kNan = std::numeric_limits<float>::quiet_NaN();

struct In {
    std::string name;
    std::vector<int> dims;
    DataType type;
};

ModelBuilder& declare(ModelBuilder& mb, const std::vector<In>& ins) {
    for (auto& i : ins) {
        mb.input(i.name, i.dims, i.type);
    }
    return mb;
}
} // namespace

// ---- Where ----

namespace {
std::vector<uint8_t> whereModel(const std::vector<int>& c, const std::vector<int>& x, const std::vector<int>& y,
                                DataType ct = DataType::DT_BOOL, DataType xt = DataType::DT_FLOAT,
                                DataType yt = DataType::DT_FLOAT) {
    ModelBuilder mb;
    declare(mb, {{"c", c, ct}, {"x", x, xt}, {"y", y, yt}});
    mb.op(Schema::OpType::Where, "where", {"c", "x", "y"}, {"z"});
    mb.output("z");
    return mb.finish();
}
} // namespace

TEST(Where, GoldenOnnxExample) {
    auto model = whereModel({2, 2}, {2, 2}, {2, 2});
    auto c = makeTyped<uint8_t>({2, 2}, {1, 0, 1, 1});
    auto x = makeTensor({2, 2}, {1, 2, 3, 4});
    auto y = makeTensor({2, 2}, {9, 8, 7, 6});
    auto r = runModel(model, {{"c", c.get()}, {"x", x.get()}, {"y", y.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<float>(r.outputs["z"].get()), (std::vector<float>{1, 8, 3, 4}));
}

TEST(Where, ThreeWayBroadcastAndTypes) {
    auto model = whereModel({2, 1}, {1, 3}, {}, DataType::DT_BOOL, DataType::DT_INT64, DataType::DT_INT64);
    auto c = makeTyped<uint8_t>({2, 1}, {1, 0});
    auto x = makeTyped<int64_t>({1, 3}, {1, 2, 1LL << 40});
    auto y = makeTyped<int64_t>({}, {-5});
    auto r = runModel(model, {{"c", c.get()}, {"x", x.get()}, {"y", y.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(shapeOf(r.outputs["z"].get()), (std::vector<int>{2, 3}));
    EXPECT_EQ(valuesOf<int64_t>(r.outputs["z"].get()), (std::vector<int64_t>{1, 2, 1LL << 40, -5, -5, -5}));

    auto m2 = whereModel({3}, {3}, {3});
    auto c2 = makeTyped<uint8_t>({3}, {1, 1, 0});
    auto x2 = makeTensor({3}, {kNan, 2, 3});
    auto y2 = makeTensor({3}, {0, 0, kNan});
    auto r2 = runModel(m2, {{"c", c2.get()}, {"x", x2.get()}, {"y", y2.get()}});
    ASSERT_EQ(r2.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r2.outputs["z"].get(), {kNan, 2, kNan}));
}

TEST(Where, RankZeroAndZeroSize) {
    auto model = whereModel({}, {}, {});
    auto c = makeTyped<uint8_t>({}, {0});
    auto x = makeTensor({}, {1});
    auto y = makeTensor({}, {2});
    auto r = runModel(model, {{"c", c.get()}, {"x", x.get()}, {"y", y.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["z"]->dimensions(), 0);
    EXPECT_EQ(valuesOf<float>(r.outputs["z"].get()), (std::vector<float>{2}));

    auto m0 = whereModel({0, 1}, {1, 4}, {1});
    auto c0 = makeTyped<uint8_t>({0, 1}, {});
    auto x0 = makeTensor({1, 4}, {1, 2, 3, 4});
    auto y0 = makeTensor({1}, {0});
    auto r0 = runModel(m0, {{"c", c0.get()}, {"x", x0.get()}, {"y", y0.get()}});
    ASSERT_EQ(r0.code, NO_ERROR);
    EXPECT_EQ(shapeOf(r0.outputs["z"].get()), (std::vector<int>{0, 4}));
}

TEST(Where, BadInputsFailAtCreate) {
    EXPECT_TRUE(createFails(whereModel({2}, {2}, {2}, DataType::DT_FLOAT), "where", "bool"));
    EXPECT_TRUE(createFails(whereModel({2}, {2}, {2}, DataType::DT_BOOL, DataType::DT_FLOAT, DataType::DT_INT32),
                            "where", "same numeric type"));
    EXPECT_TRUE(createFails(whereModel({2}, {3}, {1}), "where", "broadcast"));
}

// ---- variadic Mean / Sum / Max / Min ----

namespace {
std::vector<uint8_t> meanModel(const std::vector<std::vector<int>>& dims, Schema::BinaryOpType type,
                               bool withParam = true, DataType dt = DataType::DT_FLOAT,
                               DataType lastType = DataType::DT_INVALID) {
    ModelBuilder mb;
    std::vector<std::string> names;
    for (size_t i = 0; i < dims.size(); ++i) {
        names.push_back("x" + std::to_string(i));
        bool last = i + 1 == dims.size() && lastType != DataType::DT_INVALID;
        mb.input(names.back(), dims[i], last ? lastType : dt);
    }
    auto op = mb.op(Schema::OpType::Mean, "mean", names, {"y"});
    if (withParam) {
        Schema::BinaryParamT p;
        p.type = type;
        op->param.Set(p);
    }
    mb.output("y");
    return mb.finish();
}

template <typename T>
std::vector<T> runMean(Schema::BinaryOpType type, const std::vector<std::vector<int>>& dims,
                       const std::vector<std::vector<T>>& values, bool withParam = true,
                       std::vector<int>* shape = nullptr) {
    auto model = meanModel(dims, type, withParam, dataTypeOf<T>());
    std::vector<std::unique_ptr<Tensor>> hold;
    std::map<std::string, const Tensor*> ins;
    for (size_t i = 0; i < dims.size(); ++i) {
        hold.push_back(makeTyped<T>(dims[i], values[i]));
        ins["x" + std::to_string(i)] = hold.back().get();
    }
    auto r = runModel(model, ins);
    EXPECT_EQ(r.code, NO_ERROR);
    if (r.code != NO_ERROR) {
        return {};
    }
    if (shape) {
        *shape = shapeOf(r.outputs["y"].get());
    }
    return valuesOf<T>(r.outputs["y"].get());
}
} // namespace

TEST(Mean, GoldenOnnxSumMeanMaxMin) {
    std::vector<std::vector<int>> d = {{3}, {3}, {3}};
    std::vector<std::vector<float>> v = {{3, 0, 2}, {1, 3, 4}, {2, 6, 6}};
    EXPECT_EQ(runMean<float>(Schema::BinaryOpType::ADD, d, v), (std::vector<float>{6, 9, 12}));
    EXPECT_EQ(runMean<float>(Schema::BinaryOpType::MEAN, d, v), (std::vector<float>{2, 3, 4}));
    EXPECT_EQ(runMean<float>(Schema::BinaryOpType::MEAN, d, v, false), (std::vector<float>{2, 3, 4}));  // default
    EXPECT_EQ(runMean<float>(Schema::BinaryOpType::MAXIMUM, d, v), (std::vector<float>{3, 6, 6}));
    EXPECT_EQ(runMean<float>(Schema::BinaryOpType::MINIMUM, d, v), (std::vector<float>{1, 0, 2}));
    // one input: a copy
    EXPECT_EQ(runMean<float>(Schema::BinaryOpType::ADD, {{3}}, {{3, 0, 2}}), (std::vector<float>{3, 0, 2}));
}

TEST(Mean, BroadcastIntegersAndNan) {
    std::vector<int> shape;
    EXPECT_EQ(runMean<float>(Schema::BinaryOpType::ADD, {{2, 3}, {3}, {}}, {{1, 2, 3, 4, 5, 6}, {10, 20, 30}, {100}},
                             true, &shape),
              (std::vector<float>{111, 122, 133, 114, 125, 136}));
    EXPECT_EQ(shape, (std::vector<int>{2, 3}));
    EXPECT_EQ(runMean<float>(Schema::BinaryOpType::MEAN, {{2, 1}, {1, 2}}, {{1, 3}, {5, 7}}, true, &shape),
              (std::vector<float>{3, 4, 4, 5}));
    EXPECT_EQ(shape, (std::vector<int>{2, 2}));
    EXPECT_EQ(runMean<int32_t>(Schema::BinaryOpType::MAXIMUM, {{3}, {1}}, {{-4, 7, 0}, {2}}),
              (std::vector<int32_t>{2, 7, 2}));
    EXPECT_EQ(runMean<int64_t>(Schema::BinaryOpType::ADD, {{2}, {2}}, {{1LL << 40, -1}, {1, -1}}),
              (std::vector<int64_t>{(1LL << 40) + 1, -2}));
    EXPECT_EQ(runMean<double>(Schema::BinaryOpType::MEAN, {{1}, {1}}, {{0.25}, {0.5}}), (std::vector<double>{0.375}));
    auto r = runMean<float>(Schema::BinaryOpType::MAXIMUM, {{2}, {2}, {2}}, {{1, 5}, {kNan, 2}, {3, kNan}});
    EXPECT_TRUE(allClose(r, {kNan, kNan}));
    r = runMean<float>(Schema::BinaryOpType::MINIMUM, {{2}, {2}}, {{1, kNan}, {0, 2}});
    EXPECT_TRUE(allClose(r, {0, kNan}));
}

TEST(Mean, ZeroSize) {
    std::vector<int> shape;
    EXPECT_EQ(runMean<float>(Schema::BinaryOpType::ADD, {{0, 3}, {3}}, {{}, {1, 2, 3}}, true, &shape).size(), 0u);
    EXPECT_EQ(shape, (std::vector<int>{0, 3}));
}

TEST(Mean, BadInputsFailAtCreate) {
    EXPECT_TRUE(createFails(meanModel({{2}, {2}}, Schema::BinaryOpType::MEAN, true, DataType::DT_INT32), "mean",
                            "int32"));
    EXPECT_TRUE(createFails(meanModel({{2}, {2}}, Schema::BinaryOpType::ADD, true, DataType::DT_FLOAT,
                                      DataType::DT_INT32),
                            "mean", "type"));
    EXPECT_TRUE(createFails(meanModel({{2}, {3}}, Schema::BinaryOpType::ADD), "mean", "broadcast"));
    EXPECT_TRUE(createFails(meanModel({{2}, {2}}, Schema::BinaryOpType::SUB), "mean", "SUB"));
}

// ---- Trilu ----

namespace {
std::vector<uint8_t> triluModel(const std::vector<int>& dims, bool upper, bool withK, int64_t k,
                                DataType dt = DataType::DT_FLOAT, DataType kt = DataType::DT_INT64) {
    ModelBuilder mb;
    mb.input("x", dims, dt);
    std::vector<std::string> ins = {"x"};
    if (withK) {
        if (kt == DataType::DT_INT64) {
            mb.constantInt64("k", {}, {k});
        } else {
            mb.constant("k", {}, {(float)k});
        }
        ins.push_back("k");
    }
    auto op = mb.op(Schema::OpType::Trilu, "trilu", ins, {"y"});
    Schema::TriluParamT p;
    p.upper = upper;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

template <typename T>
std::vector<T> runTrilu(const std::vector<int>& dims, const std::vector<T>& x, bool upper, bool withK, int64_t k) {
    auto model = triluModel(dims, upper, withK, k, dataTypeOf<T>());
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

TEST(Trilu, Golden3x3) {
    const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    EXPECT_EQ(runTrilu<float>({3, 3}, x, true, false, 0), (std::vector<float>{1, 2, 3, 0, 5, 6, 0, 0, 9}));
    EXPECT_EQ(runTrilu<float>({3, 3}, x, false, false, 0), (std::vector<float>{1, 0, 0, 4, 5, 0, 7, 8, 9}));
    EXPECT_EQ(runTrilu<float>({3, 3}, x, true, true, 1), (std::vector<float>{0, 2, 3, 0, 0, 6, 0, 0, 0}));
    EXPECT_EQ(runTrilu<float>({3, 3}, x, false, true, -1), (std::vector<float>{0, 0, 0, 4, 0, 0, 7, 8, 0}));
    EXPECT_EQ(runTrilu<float>({3, 3}, x, true, true, -5), x);
    EXPECT_EQ(runTrilu<float>({3, 3}, x, false, true, INT64_MIN), (std::vector<float>(9, 0.f)));
    EXPECT_EQ(runTrilu<float>({3, 3}, x, true, true, INT64_MAX), (std::vector<float>(9, 0.f)));
}

TEST(Trilu, BatchedNonSquareMatchesFormula) {
    const std::vector<int> dims = {2, 3, 4};
    std::vector<int32_t> x(24);
    for (int i = 0; i < 24; ++i) {
        x[i] = i + 1;
    }
    for (int upper = 0; upper < 2; ++upper) {
        for (int k = -3; k <= 4; ++k) {
            std::vector<int32_t> expect(24);
            for (int b = 0; b < 2; ++b) {
                for (int i = 0; i < 3; ++i) {
                    for (int j = 0; j < 4; ++j) {
                        bool keep = upper ? j - i >= k : j - i <= k;
                        expect[(b * 3 + i) * 4 + j] = keep ? x[(b * 3 + i) * 4 + j] : 0;
                    }
                }
            }
            EXPECT_EQ(runTrilu<int32_t>(dims, x, upper != 0, true, k), expect) << "upper " << upper << " k " << k;
        }
    }
}

TEST(Trilu, ZeroSizeAndErrors) {
    EXPECT_EQ(runTrilu<float>({0, 3, 3}, {}, true, false, 0).size(), 0u);
    EXPECT_EQ(runTrilu<float>({3, 0}, {}, false, true, 1).size(), 0u);
    EXPECT_TRUE(createFails(triluModel({3}, true, false, 0), "trilu", "rank"));
    EXPECT_TRUE(createFails(triluModel({3, 3}, true, true, 0, DataType::DT_FLOAT, DataType::DT_FLOAT), "trilu",
                            "k input"));
}

// ---- Identity / Dropout ----

TEST(Identity, CopiesAnyType) {
    ModelBuilder mb;
    mb.input("x", {2, 2}, DataType::DT_INT64);
    mb.op(Schema::OpType::Identity, "id", {"x"}, {"y"});
    mb.output("y");
    auto model = mb.finish();
    auto x = makeTyped<int64_t>({2, 2}, {1, -2, 1LL << 50, 4});
    auto r = runModel(model, {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<int64_t>(r.outputs["y"].get()), (std::vector<int64_t>{1, -2, 1LL << 50, 4}));

    ModelBuilder mb0;
    mb0.input("x", {});
    mb0.op(Schema::OpType::Identity, "id", {"x"}, {"y"});
    mb0.output("y");
    auto x0 = makeTensor({}, {kNan});
    auto r0 = runModel(mb0.finish(), {{"x", x0.get()}});
    ASSERT_EQ(r0.code, NO_ERROR);
    EXPECT_EQ(r0.outputs["y"]->dimensions(), 0);
    EXPECT_TRUE(tensorClose(r0.outputs["y"].get(), {kNan}));
}

namespace {
std::vector<uint8_t> dropoutModel(const std::vector<int>& dims, bool mask, int ratioTraining, float ratio = 0.5f,
                                  bool seeded = false, int64_t seed = 0) {
    // ratioTraining: 0 no extra inputs, 1 ratio only, 2 ratio + training_mode false, 3 ratio + training true
    ModelBuilder mb;
    mb.input("x", dims);
    std::vector<std::string> ins = {"x"};
    if (ratioTraining >= 1) {
        mb.constant("ratio", {}, {ratio});
        ins.push_back("ratio");
    }
    if (ratioTraining >= 2) {
        uint8_t t = ratioTraining == 3 ? 1 : 0;
        mb.constantRaw("training", {}, DataType::DT_BOOL, &t, 1);
        ins.push_back("training");
    }
    std::vector<std::string> outs = {"y"};
    if (mask) {
        outs.push_back("mask");
    }
    auto op = mb.op(Schema::OpType::Dropout, "dropout", ins, outs);
    if (seeded) {
        Schema::DropoutParamT p;
        p.seed = seed;
        p.hasSeed = true;
        op->param.Set(p);
    }
    for (auto& o : outs) {
        mb.output(o);
    }
    return mb.finish();
}
} // namespace

TEST(Dropout, InferenceCopiesAndMaskIsTrue) {
    for (int mode = 0; mode <= 2; ++mode) {
        auto model = dropoutModel({2, 3}, true, mode);
        auto x = makeTensor({2, 3}, {1, -2, 3, kNan, 5, 6});
        auto r = runModel(model, {{"x", x.get()}});
        ASSERT_EQ(r.code, NO_ERROR) << "mode " << mode;
        EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1, -2, 3, kNan, 5, 6}));
        EXPECT_EQ(valuesOf<uint8_t>(r.outputs["mask"].get()), (std::vector<uint8_t>(6, 1)));
        EXPECT_EQ(shapeOf(r.outputs["mask"].get()), (std::vector<int>{2, 3}));
    }
    auto model = dropoutModel({3}, false, 0);
    auto x = makeTensor({3}, {7, 8, 9});
    auto r = runModel(model, {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {7, 8, 9}));
    EXPECT_EQ(r.outputs.count("mask"), 0u);
}

TEST(Dropout, TrainingSeededMaskIsNumpysUniformStream) {
    // numpy.random.seed(0); numpy.random.uniform(size=6) = 0.5488, 0.7152, 0.6028, 0.5449, 0.4237,
    // 0.6459 (the MT19937 stream the kernel draws): ratio 0.5 keeps all but element 4, ratio 0.6
    // keeps elements 1, 2 and 5
    auto x = makeTensor({2, 3}, {1, -2, 3, 4, 5, 6});
    auto r = runModel(dropoutModel({2, 3}, true, 3, 0.5f, true, 0), {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {2, -4, 6, 8, 0, 12}));
    EXPECT_EQ(valuesOf<uint8_t>(r.outputs["mask"].get()), (std::vector<uint8_t>{1, 1, 1, 1, 0, 1}));
    r = runModel(dropoutModel({2, 3}, true, 3, 0.6f, true, 0), {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0, -5, 7.5f, 0, 0, 15}));
    EXPECT_EQ(valuesOf<uint8_t>(r.outputs["mask"].get()), (std::vector<uint8_t>{0, 1, 1, 0, 0, 1}));
}

TEST(Dropout, TrainingRatioZeroCopiesAndBadRatioFails) {
    auto x = makeTensor({3}, {7, 8, 9});
    auto r = runModel(dropoutModel({3}, true, 3, 0.0f), {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {7, 8, 9}));
    EXPECT_EQ(valuesOf<uint8_t>(r.outputs["mask"].get()), (std::vector<uint8_t>(3, 1)));
    for (float bad : {1.0f, -0.25f}) {
        ::testing::internal::CaptureStderr();
        r = runModel(dropoutModel({3}, false, 3, bad), {{"x", x.get()}});
        std::string log = ::testing::internal::GetCapturedStderr();
        EXPECT_EQ(r.code, INPUT_DATA_ERROR);
        EXPECT_NE(log.find("dropout"), std::string::npos) << log;
        EXPECT_NE(log.find("[0, 1)"), std::string::npos) << log;
    }
}

TEST(Dropout, TrainingUnseededKeepsAboutOneMinusRatio) {
    const int n = 20000;
    auto x = makeTensor({n}, std::vector<float>(n, 1.0f));
    auto r = runModel(dropoutModel({n}, true, 3, 0.3f), {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    const float* y = r.outputs["y"]->host<float>();
    const uint8_t* m = r.outputs["mask"]->host<uint8_t>();
    int kept = 0;
    for (int i = 0; i < n; ++i) {
        kept += m[i];
        ASSERT_NEAR(y[i], m[i] ? 1.0f / 0.7f : 0.0f, 1e-6f) << i;
    }
    // binomial(20000, 0.7): standard deviation 65, so 5 sigma is about 0.016 of n
    EXPECT_NEAR((double)kept / n, 0.7, 0.016);
}

// ---- EyeLike ----

namespace {
std::vector<uint8_t> eyeModel(const std::vector<int>& dims, DataType inType, bool withParam, int k,
                              DataType dtype = DataType::DT_INVALID) {
    ModelBuilder mb;
    mb.input("x", dims, inType);
    auto op = mb.op(Schema::OpType::EyeLike, "eye", {"x"}, {"y"});
    if (withParam) {
        Schema::ConstantParamT p;
        p.k = k;
        if (dtype != DataType::DT_INVALID) {
            p.value.reset(new Schema::BlobT);
            p.value->dataType = dtype;
        }
        op->param.Set(p);
    }
    mb.output("y");
    return mb.finish();
}

template <typename I>
std::shared_ptr<Tensor> runEye(const std::vector<int>& dims, bool withParam, int k,
                               DataType dtype = DataType::DT_INVALID) {
    auto model = eyeModel(dims, dataTypeOf<I>(), withParam, k, dtype);
    int64_t n = 1;
    for (auto d : dims) {
        n *= d;
    }
    auto in = makeTyped<I>(dims, std::vector<I>((size_t)n, (I)7));
    auto r = runModel(model, {{"x", in.get()}});
    EXPECT_EQ(r.code, NO_ERROR);
    return r.outputs["y"];
}
} // namespace

TEST(EyeLike, GoldenDiagonals) {
    auto y = runEye<float>({3, 4}, false, 0);
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(valuesOf<float>(y.get()), (std::vector<float>{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}));
    y = runEye<float>({3, 4}, true, 1);
    EXPECT_EQ(valuesOf<float>(y.get()), (std::vector<float>{0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
    y = runEye<float>({3, 2}, true, -2);
    EXPECT_EQ(valuesOf<float>(y.get()), (std::vector<float>{0, 0, 0, 0, 1, 0}));
    y = runEye<float>({2, 2}, true, 5);
    EXPECT_EQ(valuesOf<float>(y.get()), (std::vector<float>{0, 0, 0, 0}));
}

TEST(EyeLike, TypeFromParamOrInput) {
    auto y = runEye<float>({2, 2}, true, 0, DataType::DT_INT32);
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(valuesOf<int32_t>(y.get()), (std::vector<int32_t>{1, 0, 0, 1}));
    y = runEye<int64_t>({2, 3}, false, 0);
    EXPECT_EQ(valuesOf<int64_t>(y.get()), (std::vector<int64_t>{1, 0, 0, 0, 1, 0}));
    y = runEye<int32_t>({2, 2}, true, 0, DataType::DT_DOUBLE);
    EXPECT_EQ(valuesOf<double>(y.get()), (std::vector<double>{1, 0, 0, 1}));
    y = runEye<float>({2, 2}, true, -1, DataType::DT_BOOL);
    EXPECT_EQ(valuesOf<uint8_t>(y.get()), (std::vector<uint8_t>{0, 0, 1, 0}));
}

TEST(EyeLike, ZeroSizeAndErrors) {
    auto y = runEye<float>({0, 3}, false, 0);
    ASSERT_NE(y, nullptr);
    EXPECT_EQ(shapeOf(y.get()), (std::vector<int>{0, 3}));
    EXPECT_TRUE(createFails(eyeModel({2, 2, 2}, DataType::DT_FLOAT, false, 0), "eye", "2-D"));
    EXPECT_TRUE(createFails(eyeModel({}, DataType::DT_FLOAT, false, 0), "eye", "2-D"));
    EXPECT_TRUE(createFails(eyeModel({2, 2}, DataType::DT_FLOAT, true, 0, DataType::DT_STRING), "eye", "type"));
}
