// Pooling: ONNX's documented goldens and hand-computed cases, randomized comparison with 2-D loops
// written here (stride, dilation, asymmetric pads, ceil_mode, count_include_pad, Lp), MaxPool indices,
// global variants, auto_pad, uint8, zero-size batch and invalid attributes.
#include <math.h>
#include <algorithm>
#include "NNTestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

static std::vector<uint8_t> poolModel(const std::vector<int>& xDims, const Schema::PoolParamT& param,
                                      bool indices = false, Schema::DataType type = Schema::DataType::DT_FLOAT) {
    ModelBuilder mb;
    mb.input("x", xDims, type);
    std::vector<std::string> outs = {"y"};
    if (indices) {
        outs.push_back("i");
    }
    auto op = mb.op(Schema::OpType::Pooling, "pool", {"x"}, outs);
    Schema::PoolParamT copy = param;
    op->param.Set(copy);
    for (auto& o : outs) {
        mb.output(o);
    }
    return mb.finish();
}

static RunResult runPool(const std::vector<int>& xDims, const std::vector<float>& x, const Schema::PoolParamT& p,
                         bool indices = false) {
    auto xt = makeTensor(xDims, x);
    return runModel(poolModel(xDims, p, indices), {{"x", xt.get()}});
}

static std::vector<float> iota(int n, float start) {
    std::vector<float> v(n);
    for (int i = 0; i < n; ++i) {
        v[i] = start + (float)i;
    }
    return v;
}

static Schema::PoolParamT pool(Schema::PoolType type, std::vector<int> kernel) {
    Schema::PoolParamT p;
    p.type = type;
    p.kernel = kernel;
    return p;
}

static std::vector<int64_t> indicesOf(const Tensor* t) {
    return std::vector<int64_t>(t->host<int64_t>(), t->host<int64_t>() + t->elementSize());
}

TEST(Pooling, GoldenMaxPoolPadsWithIndices) {
    auto p = pool(Schema::PoolType::MAXPOOL, {5, 5});
    p.pads = {2, 2, 2, 2};
    auto r = runPool({1, 1, 5, 5}, iota(25, 1), p, true);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {13, 14, 15, 15, 15, 18, 19, 20, 20, 20, 23, 24, 25, 25, 25,
                                                   23, 24, 25, 25, 25, 23, 24, 25, 25, 25}));
    ASSERT_EQ(r.outputs["i"]->getType(), halide_type_of<int64_t>());
    EXPECT_EQ(indicesOf(r.outputs["i"].get()),
              (std::vector<int64_t>{12, 13, 14, 14, 14, 17, 18, 19, 19, 19, 22, 23, 24, 24, 24, 22, 23, 24, 24, 24,
                                    22, 23, 24, 24, 24}));
}

TEST(Pooling, GoldenMaxPoolIndicesColumnMajorAndBatchOffset) {
    auto p = pool(Schema::PoolType::MAXPOOL, {2, 2});
    p.strides = {2, 2};
    p.storageOrder = 1;
    auto r = runPool({1, 1, 5, 5}, iota(25, 1), p, true);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {7, 9, 17, 19}));
    EXPECT_EQ(indicesOf(r.outputs["i"].get()), (std::vector<int64_t>{6, 16, 8, 18}));
    // row-major, second plane: offsets include (n * C + c) * H * W
    p.storageOrder = 0;
    auto x = iota(8, 0);
    r = runPool({1, 2, 2, 2}, x, p, true);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(indicesOf(r.outputs["i"].get()), (std::vector<int64_t>{3, 7}));
}

TEST(Pooling, GoldenCeilModeAndDilation) {
    auto p = pool(Schema::PoolType::MAXPOOL, {3, 3});
    p.strides = {2, 2};
    p.ceilMode = true;
    auto r = runPool({1, 1, 4, 4}, iota(16, 1), p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {11, 12, 15, 16}));
    p.type = Schema::PoolType::AVERAGEPOOL;
    r = runPool({1, 1, 4, 4}, iota(16, 1), p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {6, 7.5f, 12, 13.5f}));

    auto d = pool(Schema::PoolType::MAXPOOL, {2, 2});
    d.dilations = {2, 2};
    r = runPool({1, 1, 4, 4}, iota(16, 1), d);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {11, 12, 15, 16}));
}

TEST(Pooling, CeilModeDropsWindowStartingInEndPadding) {
    // in 4, kernel 2, stride 2, pads [0, 1]: ceil((4 + 1 - 2) / 2) + 1 = 3, but the third window
    // would start at 4 (inside the end padding) and is dropped
    auto p = pool(Schema::PoolType::AVERAGEPOOL, {2});
    p.strides = {2};
    p.pads = {0, 1};
    p.ceilMode = true;
    auto r = runPool({1, 1, 4}, {1, 2, 3, 4}, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 1, 2}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1.5f, 3.5f}));
    // in 5, no pads: the third window starts at 4 (inside X) and holds one element; positions past
    // the end are not padding, so count_include_pad still divides by 1
    p.pads.clear();
    p.countIncludePad = true;
    r = runPool({1, 1, 5}, {1, 2, 3, 4, 5}, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1.5f, 3.5f, 5}));
}

TEST(Pooling, GoldenAverageCountIncludePad) {
    auto p = pool(Schema::PoolType::AVERAGEPOOL, {2, 2});
    p.pads = {1, 1, 1, 1};
    p.countIncludePad = true;
    auto r = runPool({1, 1, 2, 2}, {1, 2, 3, 4}, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0.25f, 0.75f, 0.5f, 1, 2.5f, 1.5f, 0.75f, 1.75f, 1}));
    p.countIncludePad = false;
    r = runPool({1, 1, 2, 2}, {1, 2, 3, 4}, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1, 1.5f, 2, 2, 2.5f, 3, 3, 3.5f, 4}));
}

TEST(Pooling, GoldenLpPool) {
    auto p = pool(Schema::PoolType::LPPOOL, {2});
    p.p = 2;
    auto r = runPool({1, 1, 4}, {3, 4, 0, -5}, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {5, 4, 5}));
    p.p = 1;
    r = runPool({1, 1, 4}, {3, 4, 0, -5}, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {7, 4, 5}));
}

TEST(Pooling, GoldenGlobal) {
    Schema::PoolParamT p;
    p.global = true;
    std::vector<float> x = {1, -2, 3, 4, 0, 5, -6, 1};
    p.type = Schema::PoolType::AVERAGEPOOL;
    auto r = runPool({1, 2, 2, 2}, x, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 2, 1, 1}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1.5f, 0}));
    p.type = Schema::PoolType::MAXPOOL;
    r = runPool({1, 2, 2, 2}, x, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {4, 5}));
    p.type = Schema::PoolType::LPPOOL;
    p.p = 2;
    r = runPool({1, 2, 2, 2}, x, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {sqrtf(30), sqrtf(62)}));
    // 3-D global average
    p.type = Schema::PoolType::AVERAGEPOOL;
    r = runPool({1, 1, 2, 2, 2}, x, p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{1, 1, 1, 1, 1}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {0.75f}));
}

TEST(Pooling, GoldenAutoPad) {
    // ONNX maxpool_2d_same_upper / same_lower: 5x5 of 1..25, kernel 3, stride 2 -> 3x3
    auto p = pool(Schema::PoolType::MAXPOOL, {3, 3});
    p.strides = {2, 2};
    p.padMode = Schema::PadMode::SAME_UPPER;
    auto r = runPool({1, 1, 5, 5}, iota(25, 1), p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {7, 9, 10, 17, 19, 20, 22, 24, 25}));
    // 4x4, kernel 2, stride 1, total pad 1: SAME_LOWER pads at the start
    auto q = pool(Schema::PoolType::AVERAGEPOOL, {2, 2});
    q.padMode = Schema::PadMode::SAME_LOWER;
    r = runPool({1, 1, 2, 2}, {1, 2, 3, 4}, q);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {1, 1.5f, 2, 2.5f}));
    q.padMode = Schema::PadMode::SAME_UPPER;
    r = runPool({1, 1, 2, 2}, {1, 2, 3, 4}, q);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {2.5f, 3, 3.5f, 4}));
    q.padMode = Schema::PadMode::VALID;
    r = runPool({1, 1, 2, 2}, {1, 2, 3, 4}, q);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {2.5f}));
}

TEST(Pooling, MaxPoolUint8) {
    auto p = pool(Schema::PoolType::MAXPOOL, {2, 2});
    auto model = poolModel({1, 1, 2, 3}, p, false, Schema::DataType::DT_UINT8);
    std::unique_ptr<Tensor> x(Tensor::create<uint8_t>({1, 1, 2, 3}, nullptr, Tensor::CAFFE));
    uint8_t values[] = {10, 250, 3, 7, 9, 255};
    memcpy(x->host<uint8_t>(), values, 6);
    auto r = runModel(model, {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    ASSERT_EQ(r.outputs["y"]->getType(), halide_type_of<uint8_t>());
    EXPECT_EQ(r.outputs["y"]->host<uint8_t>()[0], 250);
    EXPECT_EQ(r.outputs["y"]->host<uint8_t>()[1], 255);
}

// ---- randomized comparison with 2-D loops ----
struct PoolSpec {
    Schema::PoolType type;
    int h, w, kh, kw;
    int sh = 1, sw = 1, dh = 1, dw = 1;
    int pt = 0, pl = 0, pb = 0, pr = 0;
    bool ceil = false, includePad = false;
    int p = 2;
};

static int poolOut(int in, int k, int s, int d, int pb, int pe, bool ceil) {
    int span = in + pb + pe - (k - 1) * d - 1;
    int out = ceil ? (span + s - 1) / s + 1 : span / s + 1;
    if (ceil && (out - 1) * s >= in + pb) {
        out -= 1;
    }
    return out;
}

static std::vector<float> naivePool2D(const PoolSpec& s, int planes, const std::vector<float>& x, int* oh, int* ow) {
    *oh = poolOut(s.h, s.kh, s.sh, s.dh, s.pt, s.pb, s.ceil);
    *ow = poolOut(s.w, s.kw, s.sw, s.dw, s.pl, s.pr, s.ceil);
    std::vector<float> y((size_t)planes * *oh * *ow);
    for (int c = 0; c < planes; ++c)
        for (int i = 0; i < *oh; ++i)
            for (int j = 0; j < *ow; ++j) {
                double best = -INFINITY, sum = 0;
                int count = 0, padded = 0;
                for (int ki = 0; ki < s.kh; ++ki)
                    for (int kj = 0; kj < s.kw; ++kj) {
                        int hi = i * s.sh - s.pt + ki * s.dh;
                        int wj = j * s.sw - s.pl + kj * s.dw;
                        if (hi < s.h + s.pb && wj < s.w + s.pr) {
                            padded++;
                        }
                        if (hi < 0 || wj < 0 || hi >= s.h || wj >= s.w) {
                            continue;
                        }
                        double v = x[(c * s.h + hi) * s.w + wj];
                        best = std::max(best, v);
                        sum += s.type == Schema::PoolType::LPPOOL ? pow(fabs(v), s.p) : v;
                        count++;
                    }
                double r = s.type == Schema::PoolType::MAXPOOL ? best
                           : s.type == Schema::PoolType::LPPOOL ? pow(sum, 1.0 / s.p)
                                                                : sum / (s.includePad ? padded : count);
                y[(c * *oh + i) * *ow + j] = (float)r;
            }
    return y;
}

TEST(Pooling, RandomizedAgainstLoops) {
    std::vector<PoolSpec> specs;
    for (auto type : {Schema::PoolType::MAXPOOL, Schema::PoolType::AVERAGEPOOL, Schema::PoolType::LPPOOL}) {
        PoolSpec s{type, 9, 8, 3, 2};
        specs.push_back(s);
        s.sh = 2;
        s.sw = 3;
        specs.push_back(s);
        s.pt = 1;
        s.pl = 0;
        s.pb = 0;
        s.pr = 1;
        specs.push_back(s);
        s.ceil = true;
        specs.push_back(s);
        s.includePad = true;
        specs.push_back(s);
        s.dh = 2;
        s.dw = 2;
        specs.push_back(s);
        s.ceil = false;
        s.p = 3;
        specs.push_back(s);
    }
    unsigned seed = 50;
    for (auto& s : specs) {
        SCOPED_TRACE(::testing::Message() << "seed " << seed << " type " << (int)s.type);
        const int planes = 2 * 3;
        auto x = randomFloats((size_t)planes * s.h * s.w, seed++);
        int oh = 0, ow = 0;
        auto expect = naivePool2D(s, planes, x, &oh, &ow);
        auto p = pool(s.type, {s.kh, s.kw});
        p.strides = {s.sh, s.sw};
        p.dilations = {s.dh, s.dw};
        p.pads = {s.pt, s.pl, s.pb, s.pr};
        p.ceilMode = s.ceil;
        p.countIncludePad = s.includePad;
        p.p = s.p;
        auto r = runPool({2, 3, s.h, s.w}, x, p);
        ASSERT_EQ(r.code, NO_ERROR);
        EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{2, 3, oh, ow}));
        EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect, 1e-5f, 1e-5f));
    }
}

TEST(Pooling, ZeroSizeBatch) {
    auto p = pool(Schema::PoolType::MAXPOOL, {2, 2});
    auto x = makeTensor({0, 3, 4, 4}, {});
    auto r = runModel(poolModel({0, 3, 4, 4}, p, true), {{"x", x.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{0, 3, 3, 3}));
    EXPECT_EQ(r.outputs["i"]->shape(), (std::vector<int>{0, 3, 3, 3}));
}

TEST(Pooling, InvalidFailAtCreate) {
    Schema::PoolParamT p; // no kernel
    expectCreateFails(poolModel({1, 1, 4, 4}, p), {"pool", "Pooling", "kernel_shape"});
    p = pool(Schema::PoolType::MAXPOOL, {5, 5});
    expectCreateFails(poolModel({1, 1, 4, 4}, p), {"pool", "smaller"});
    p = pool(Schema::PoolType::MAXPOOL, {2});
    expectCreateFails(poolModel({1, 1, 4, 4}, p), {"pool", "kernel has 1 dims"});
    p = pool(Schema::PoolType::AVERAGEPOOL, {2, 2});
    expectCreateFails(poolModel({1, 1, 4, 4}, p, true), {"pool", "Indices"});
    p = pool(Schema::PoolType::MAXPOOL, {2, 2});
    expectCreateFails(poolModel({4, 4}, p), {"pool", "spatial"});
    p.dilations = {0, 1};
    expectCreateFails(poolModel({1, 1, 4, 4}, p), {"pool", "dilations"});
    p = pool(Schema::PoolType::AVERAGEPOOL, {2, 2});
    expectCreateFails(poolModel({1, 1, 4, 4}, p, false, Schema::DataType::DT_INT32), {"pool", "int32"});
    // a pad mode byte outside the enum was taken for EXPLICIT with no pads read: an out-of-bounds
    // read of the pad list (found by mnn_fuzz_model)
    p = pool(Schema::PoolType::MAXPOOL, {2, 2});
    p.padMode = (Schema::PadMode)7;
    expectCreateFails(poolModel({1, 1, 4, 4}, p), {"pool", "pad mode 7 is unknown"});
    p.padMode = (Schema::PadMode)-3;
    expectCreateFails(poolModel({1, 1, 4, 4}, p), {"pool", "pad mode -3 is unknown"});
}
