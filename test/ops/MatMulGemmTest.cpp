// MatMul and Gemm: goldens, randomized comparison with triple loops written here (batch broadcast,
// 1-D operands, transposes, C broadcast), integer types, fused activation, FLOPs, zero sizes, invalid shapes.
#include "NNTestUtils.hpp"

using namespace MNN;
using namespace MNN::Test;

static Operand in(const std::string& name, std::vector<int> dims, std::vector<float> data) {
    return Operand{name, dims, data, false};
}
static Operand cst(const std::string& name, std::vector<int> dims, std::vector<float> data) {
    return Operand{name, dims, data, true};
}

static RunResult matmul(const std::vector<int>& a, const std::vector<float>& av, const std::vector<int>& b,
                        const std::vector<float>& bv, const Schema::GemmParamT* p = nullptr) {
    return runSingleOp(Schema::OpType::MatMul, {in("a", a, av), in("b", b, bv)}, {"y"}, p);
}

TEST(MatMul, GoldenAndVectorOperands) {
    // [[1,2,3],[4,5,6]] @ [[1,0],[0,1],[1,1]]
    auto r = matmul({2, 3}, {1, 2, 3, 4, 5, 6}, {3, 2}, {1, 0, 0, 1, 1, 1});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{2, 2}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {4, 5, 10, 11}));
    r = matmul({3}, {1, 2, 3}, {3, 2}, {1, 0, 0, 1, 1, 1});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{2}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {4, 5}));
    r = matmul({2, 3}, {1, 2, 3, 4, 5, 6}, {3}, {1, 0, -1});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{2}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {-2, -2}));
    r = matmul({3}, {1, 2, 3}, {3}, {4, 5, 6});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->dimensions(), 0);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {32}));
    // 1-D against a batch: [3] @ [2, 3, 2] -> [2, 2]
    r = matmul({3}, {1, 2, 3}, {2, 3, 2}, {1, 0, 0, 1, 1, 1, 2, 0, 0, 2, 2, 2});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{2, 2}));
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {4, 5, 8, 10}));
}

static std::vector<float> naiveBatchedMatMul(const std::vector<int>& a, const std::vector<float>& av,
                                             const std::vector<int>& b, const std::vector<float>& bv,
                                             std::vector<int>* outDims) {
    // both rank 4 here, batch dims broadcast with 1s
    int m = a[2], k = a[3], n = b[3];
    int b0 = std::max(a[0], b[0]), b1 = std::max(a[1], b[1]);
    std::vector<float> y((size_t)b0 * b1 * m * n);
    for (int i0 = 0; i0 < b0; ++i0)
        for (int i1 = 0; i1 < b1; ++i1)
            for (int i = 0; i < m; ++i)
                for (int j = 0; j < n; ++j) {
                    double acc = 0;
                    int ia = ((a[0] == 1 ? 0 : i0) * a[1] + (a[1] == 1 ? 0 : i1)) * m * k;
                    int ib = ((b[0] == 1 ? 0 : i0) * b[1] + (b[1] == 1 ? 0 : i1)) * k * n;
                    for (int q = 0; q < k; ++q) {
                        acc += (double)av[ia + i * k + q] * bv[ib + q * n + j];
                    }
                    y[((i0 * b1 + i1) * m + i) * n + j] = (float)acc;
                }
    *outDims = {b0, b1, m, n};
    return y;
}

TEST(MatMul, RandomizedBatchBroadcast) {
    struct Case {
        std::vector<int> a, b;
    };
    std::vector<Case> cases = {{{2, 3, 4, 5}, {2, 3, 5, 6}}, {{2, 1, 4, 5}, {1, 3, 5, 2}}, {{1, 1, 3, 7}, {4, 2, 7, 3}},
                               {{3, 2, 1, 4}, {3, 1, 4, 1}}};
    unsigned seed = 1;
    for (auto& c : cases) {
        auto av = randomFloats(countOf(c.a), seed++), bv = randomFloats(countOf(c.b), seed++);
        std::vector<int> dims;
        auto expect = naiveBatchedMatMul(c.a, av, c.b, bv, &dims);
        auto r = matmul(c.a, av, c.b, bv);
        ASSERT_EQ(r.code, NO_ERROR);
        EXPECT_EQ(r.outputs["y"]->shape(), dims);
        EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect));
    }
    // lower-rank B broadcast against a rank-4 A: [2, 3, 4, 5] @ [5, 6] == @ [1, 1, 5, 6]
    auto av = randomFloats(120, 40), bv = randomFloats(30, 41);
    std::vector<int> dims;
    auto expect = naiveBatchedMatMul({2, 3, 4, 5}, av, {1, 1, 5, 6}, bv, &dims);
    auto r = matmul({2, 3, 4, 5}, av, {5, 6}, bv);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->shape(), dims);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect));
}

TEST(MatMul, Int64AndFusedReluAndZeroSizes) {
    ModelBuilder mb;
    mb.input("a", {2, 2}, Schema::DataType::DT_INT64);
    mb.constantInt64("b", {2, 2}, {3000000000LL, 1, -1, 2});
    mb.op(Schema::OpType::MatMul, "mm", {"a", "b"}, {"y"});
    mb.output("y");
    std::unique_ptr<Tensor> a(Tensor::create<int64_t>({2, 2}, nullptr, Tensor::CAFFE));
    int64_t av[] = {1, 2, 3, -4};
    memcpy(a->host<int64_t>(), av, sizeof(av));
    auto r = runModel(mb.finish(), {{"a", a.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    auto y = r.outputs["y"]->host<int64_t>();
    EXPECT_EQ(y[0], 3000000000LL - 2);
    EXPECT_EQ(y[1], 1 + 4);
    EXPECT_EQ(y[2], 9000000000LL + 4);
    EXPECT_EQ(y[3], 3 - 8);

    Schema::GemmParamT p;
    p.activation = Schema::FusedActivation::RELU;
    auto rf = matmul({2, 2}, {1, 2, 3, -4}, {2, 1}, {1, 1}, &p);
    ASSERT_EQ(rf.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(rf.outputs["y"].get(), {3, 0}));

    // K = 0 gives zeros; batch 0 gives an empty result
    rf = matmul({2, 0}, {}, {0, 3}, {});
    ASSERT_EQ(rf.code, NO_ERROR);
    EXPECT_EQ(rf.outputs["y"]->shape(), (std::vector<int>{2, 3}));
    EXPECT_TRUE(tensorClose(rf.outputs["y"].get(), {0, 0, 0, 0, 0, 0}));
    rf = matmul({0, 2, 3}, {}, {3, 4}, randomFloats(12, 3));
    ASSERT_EQ(rf.code, NO_ERROR);
    EXPECT_EQ(rf.outputs["y"]->shape(), (std::vector<int>{0, 2, 4}));
}

TEST(MatMul, FlopsAndInvalid) {
    Schema::GemmParamT* none = nullptr;
    auto model = singleOpModel(Schema::OpType::MatMul, {in("a", {3, 4, 5}, {}), cst("b", {5, 6}, randomFloats(30, 1))},
                               {"y"}, none);
    EXPECT_NEAR(sessionMFlops(model), 2.0 * 3 * 4 * 6 * 5 / 1e6, 1e-9);
    expectCreateFails(singleOpModel(Schema::OpType::MatMul, {in("a", {2, 3}, {}), in("b", {4, 2}, {})}, {"y"}, none),
                      {"op", "MatMul", "inner dims 3 and 4"});
    expectCreateFails(
        singleOpModel(Schema::OpType::MatMul, {in("a", {2, 2, 3}, {}), in("b", {3, 3, 2}, {})}, {"y"}, none),
        {"op", "MatMul", "batch dims"});
    expectCreateFails(singleOpModel(Schema::OpType::MatMul, {in("a", {}, {}), in("b", {3}, {})}, {"y"}, none),
                      {"op", "MatMul", "rank >= 1"});
    ModelBuilder mb;
    mb.input("a", {2, 2});
    mb.input("b", {2, 2}, Schema::DataType::DT_INT32);
    mb.op(Schema::OpType::MatMul, "mixed", {"a", "b"}, {"y"});
    mb.output("y");
    expectCreateFails(mb.finish(), {"op mixed", "MatMul", "int32"});
}

static std::vector<float> naiveGemm(int m, int n, int k, bool ta, bool tb, float alpha, float beta,
                                    const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>* c,
                                    int cRows, int cCols) {
    std::vector<float> y((size_t)m * n);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double acc = 0;
            for (int q = 0; q < k; ++q) {
                double av = ta ? a[q * m + i] : a[i * k + q];
                double bv = tb ? b[j * k + q] : b[q * n + j];
                acc += av * bv;
            }
            double cv = c ? (*c)[(cRows == 1 ? 0 : i) * cCols + (cCols == 1 ? 0 : j)] : 0.0;
            y[i * n + j] = (float)(alpha * acc + beta * cv);
        }
    return y;
}

TEST(Gemm, GoldenAlphaBetaTransposes) {
    Schema::GemmParamT p;
    p.alpha = 2.0f;
    p.beta = -1.0f;
    p.transA = true;
    // A' = [[1,2],[3,4]] stored as A = [[1,3],[2,4]]; B = I; C = [10, 20] per column
    auto r = runSingleOp(Schema::OpType::Gemm,
                         {in("a", {2, 2}, {1, 3, 2, 4}), cst("b", {2, 2}, {1, 0, 0, 1}), cst("c", {2}, {10, 20})}, {"y"},
                         &p);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {2 - 10, 4 - 20, 6 - 10, 8 - 20}));
    // no C, transB, clip activation
    Schema::GemmParamT q;
    q.transB = true;
    q.activation = Schema::FusedActivation::CLIP;
    q.clipMin = 0.0f;
    q.clipMax = 6.0f;
    r = runSingleOp(Schema::OpType::Gemm, {in("a", {1, 3}, {1, 2, 3}), cst("b", {3, 3}, {1, 1, 1, -1, 0, 0, 0, 1, 0})},
                    {"y"}, &q);
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_TRUE(tensorClose(r.outputs["y"].get(), {6, 0, 2}));
}

TEST(Gemm, RandomizedAllTransposesAndCShapes) {
    const int m = 4, n = 5, k = 3;
    unsigned seed = 60;
    struct CShape {
        std::vector<int> dims;
        int rows, cols;
    };
    std::vector<CShape> cshapes = {{{}, 1, 1}, {{1}, 1, 1}, {{n}, 1, n}, {{m, 1}, m, 1}, {{m, n}, m, n}};
    for (int ta = 0; ta < 2; ++ta) {
        for (int tb = 0; tb < 2; ++tb) {
            for (auto& cs : cshapes) {
                SCOPED_TRACE(::testing::Message() << "transA " << ta << " transB " << tb << " C rank "
                                                  << cs.dims.size());
                Schema::GemmParamT p;
                p.alpha = 0.5f;
                p.beta = 1.5f;
                p.transA = ta;
                p.transB = tb;
                auto a = randomFloats(m * k, seed++), b = randomFloats(k * n, seed++);
                auto c = randomFloats(cs.rows * cs.cols, seed++);
                auto expect = naiveGemm(m, n, k, ta, tb, 0.5f, 1.5f, a, b, &c, cs.rows, cs.cols);
                auto r = runSingleOp(Schema::OpType::Gemm,
                                     {in("a", ta ? std::vector<int>{k, m} : std::vector<int>{m, k}, a),
                                      cst("b", tb ? std::vector<int>{n, k} : std::vector<int>{k, n}, b),
                                      cst("c", cs.dims, c)},
                                     {"y"}, &p);
                ASSERT_EQ(r.code, NO_ERROR);
                EXPECT_EQ(r.outputs["y"]->shape(), (std::vector<int>{m, n}));
                EXPECT_TRUE(tensorClose(r.outputs["y"].get(), expect));
            }
        }
    }
}

TEST(Gemm, Int32FlopsAndInvalid) {
    ModelBuilder mb;
    mb.input("a", {1, 2}, Schema::DataType::DT_INT32);
    mb.constantInt32("b", {2, 2}, {1, 2, 3, 4});
    mb.constantInt32("c", {2}, {100, -100});
    mb.op(Schema::OpType::Gemm, "gemm", {"a", "b", "c"}, {"y"});
    mb.output("y");
    std::unique_ptr<Tensor> a(Tensor::create<int32_t>({1, 2}, nullptr, Tensor::CAFFE));
    a->host<int32_t>()[0] = 5;
    a->host<int32_t>()[1] = -1;
    auto r = runModel(mb.finish(), {{"a", a.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(r.outputs["y"]->host<int32_t>()[0], 5 - 3 + 100);
    EXPECT_EQ(r.outputs["y"]->host<int32_t>()[1], 10 - 4 - 100);

    Schema::GemmParamT p;
    p.transA = true;
    auto model = singleOpModel(Schema::OpType::Gemm, {in("a", {7, 3}, {}), cst("b", {7, 4}, randomFloats(28, 1))},
                               {"y"}, &p);
    EXPECT_NEAR(sessionMFlops(model), 2.0 * 3 * 4 * 7 / 1e6, 1e-9);
    p.transA = false;
    expectCreateFails(singleOpModel(Schema::OpType::Gemm, {in("a", {2, 3}, {}), in("b", {2, 3}, {})}, {"y"}, &p),
                      {"op", "Gemm", "inner dims 3 and 2"});
    expectCreateFails(singleOpModel(Schema::OpType::Gemm,
                                    {in("a", {2, 3}, {}), in("b", {3, 4}, {}), cst("c", {3}, {1, 2, 3})}, {"y"}, &p),
                      {"op", "Gemm", "C 3"});
    expectCreateFails(singleOpModel(Schema::OpType::Gemm, {in("a", {1, 2, 3}, {}), in("b", {3, 4}, {})}, {"y"}, &p),
                      {"op", "Gemm", "2-D"});
}
