#include <math.h>
#include "OpTestHelpers.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
std::vector<uint8_t> einsumModel(const std::string& eq, const std::vector<std::vector<int>>& dims,
                                 Schema::DataType dt = Schema::DataType::DT_FLOAT,
                                 Schema::DataType lastType = Schema::DataType::DT_INVALID) {
    ModelBuilder mb;
    std::vector<std::string> names;
    for (size_t i = 0; i < dims.size(); ++i) {
        names.push_back("x" + std::to_string(i));
        bool last = i + 1 == dims.size() && lastType != Schema::DataType::DT_INVALID;
        mb.input(names.back(), dims[i], last ? lastType : dt);
    }
    auto op = mb.op(Schema::OpType::Einsum, "einsum", names, {"y"});
    Schema::EinsumParamT p;
    p.equation = eq;
    op->param.Set(p);
    mb.output("y");
    return mb.finish();
}

template <typename T>
std::vector<T> runEinsum(const std::string& eq, const std::vector<std::vector<int>>& dims,
                         const std::vector<std::vector<T>>& values, std::vector<int>* shape = nullptr) {
    auto model = einsumModel(eq, dims, dataTypeOf<T>());
    std::vector<std::unique_ptr<Tensor>> hold;
    std::map<std::string, const Tensor*> ins;
    for (size_t i = 0; i < dims.size(); ++i) {
        hold.push_back(makeTyped<T>(dims[i], values[i]));
        ins["x" + std::to_string(i)] = hold.back().get();
    }
    auto r = runModel(model, ins);
    EXPECT_EQ(r.code, NO_ERROR) << eq;
    if (r.code != NO_ERROR) {
        return {};
    }
    if (shape) {
        *shape = shapeOf(r.outputs["y"].get());
    }
    return valuesOf<T>(r.outputs["y"].get());
}

const std::vector<float> k23 = {1, 2, 3, 4, 5, 6};  // [[1, 2, 3], [4, 5, 6]]
} // namespace

TEST(Einsum, GoldenBasicForms) {
    std::vector<int> s;
    EXPECT_EQ(runEinsum<float>("ij->ji", {{2, 3}}, {k23}, &s), (std::vector<float>{1, 4, 2, 5, 3, 6}));
    EXPECT_EQ(s, (std::vector<int>{3, 2}));
    EXPECT_EQ(runEinsum<float>("ij->i", {{2, 3}}, {k23}, &s), (std::vector<float>{6, 15}));
    EXPECT_EQ(runEinsum<float>("ij->", {{2, 3}}, {k23}, &s), (std::vector<float>{21}));
    EXPECT_EQ(s, (std::vector<int>{}));
    EXPECT_EQ(runEinsum<float>("i,i", {{3}, {3}}, {{1, 2, 3}, {4, 5, 6}}, &s), (std::vector<float>{32}));
    EXPECT_EQ(s, (std::vector<int>{}));
    EXPECT_EQ(runEinsum<float>("i,j->ij", {{2}, {3}}, {{1, 2}, {1, 10, 100}}, &s),
              (std::vector<float>{1, 10, 100, 2, 20, 200}));
    // implicit output: labels used once, in ASCII order -> "ik"
    EXPECT_EQ(runEinsum<float>("ij,jk", {{2, 3}, {3, 1}}, {k23, {1, 0, -1}}, &s), (std::vector<float>{-2, -2}));
    EXPECT_EQ(s, (std::vector<int>{2, 1}));
    // uppercase sorts before lowercase: "bA" -> "Ab"
    EXPECT_EQ(runEinsum<float>("bA", {{2, 3}}, {k23}, &s), (std::vector<float>{1, 4, 2, 5, 3, 6}));
    // trace and diagonal
    EXPECT_EQ(runEinsum<float>("ii", {{3, 3}}, {{1, 2, 3, 4, 5, 6, 7, 8, 9}}), (std::vector<float>{15}));
    EXPECT_EQ(runEinsum<float>("ii->i", {{3, 3}}, {{1, 2, 3, 4, 5, 6, 7, 8, 9}}), (std::vector<float>{1, 5, 9}));
}

TEST(Einsum, BatchMatmulWithSpacesAndEllipsis) {
    // [2, 2, 2] x [2, 2, 1]
    std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8};
    std::vector<float> b = {1, 1, 2, -1};
    std::vector<int> s;
    EXPECT_EQ(runEinsum<float>(" bij , bjk -> bik ", {{2, 2, 2}, {2, 2, 1}}, {a, b}, &s),
              (std::vector<float>{3, 7, 4, 6}));
    EXPECT_EQ(s, (std::vector<int>{2, 2, 1}));
    EXPECT_EQ(runEinsum<float>("...ij,...jk->...ik", {{2, 2, 2}, {2, 2, 1}}, {a, b}), (std::vector<float>{3, 7, 4, 6}));
    // batch diagonal
    EXPECT_EQ(runEinsum<float>("...ii->...i", {{2, 2, 2}}, {a}, &s), (std::vector<float>{1, 4, 5, 8}));
    EXPECT_EQ(s, (std::vector<int>{2, 2}));
    // ellipsis broadcasting: [2, 1, 3] against [4, 3] -> [2, 4]
    std::vector<float> x = {1, 2, 3, 4, 5, 6};
    std::vector<float> w = {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
    EXPECT_EQ(runEinsum<float>("...j,...j->...", {{2, 1, 3}, {4, 3}}, {x, w}, &s),
              (std::vector<float>{1, 2, 3, 6, 4, 5, 6, 15}));
    EXPECT_EQ(s, (std::vector<int>{2, 4}));
    // size-1 label broadcast like numpy
    EXPECT_EQ(runEinsum<float>("ij,ij->ij", {{2, 3}, {1, 3}}, {k23, {1, 10, 100}}),
              (std::vector<float>{1, 20, 300, 4, 50, 600}));
}

TEST(Einsum, IntegerTypes) {
    EXPECT_EQ(runEinsum<int32_t>("ij,j->i", {{2, 3}, {3}}, {{1, 2, 3, 4, 5, 6}, {1, -1, 2}}),
              (std::vector<int32_t>{5, 11}));
    EXPECT_EQ(runEinsum<int64_t>("i,i->", {{2}, {2}}, {{1LL << 40, 3}, {2, -1}}),
              (std::vector<int64_t>{(1LL << 41) - 3}));
    EXPECT_EQ(runEinsum<double>("i->", {{3}}, {{0.5, 0.25, 0.125}}), (std::vector<double>{0.875}));
}

TEST(Einsum, RandomMatchesLoopReference) {
    // "abc,cd,b->da"
    const int A = 3, B = 4, C = 5, D = 2;
    auto x = randomFloats(A * B * C, 1);
    auto y = randomFloats(C * D, 2);
    auto z = randomFloats(B, 3);
    std::vector<float> expect(D * A);
    for (int d = 0; d < D; ++d) {
        for (int a = 0; a < A; ++a) {
            double s = 0;
            for (int b = 0; b < B; ++b) {
                for (int c = 0; c < C; ++c) {
                    s += (double)x[(a * B + b) * C + c] * y[c * D + d] * z[b];
                }
            }
            expect[d * A + a] = (float)s;
        }
    }
    std::vector<int> s;
    EXPECT_TRUE(allClose(runEinsum<float>("abc,cd,b->da", {{A, B, C}, {C, D}, {B}}, {x, y, z}, &s), expect));
    EXPECT_EQ(s, (std::vector<int>{D, A}));
}

TEST(Einsum, ZeroSizeAndRankZero) {
    std::vector<int> s;
    // contracted dim of size 0: sums are 0
    EXPECT_EQ(runEinsum<float>("ij,jk->ik", {{2, 0}, {0, 2}}, {{}, {}}, &s), (std::vector<float>{0, 0, 0, 0}));
    EXPECT_EQ(s, (std::vector<int>{2, 2}));
    EXPECT_EQ(runEinsum<float>("ij->j", {{2, 0}}, {{}}, &s).size(), 0u);
    EXPECT_EQ(s, (std::vector<int>{0}));
    EXPECT_EQ(runEinsum<float>(",->", {{}, {}}, {{3}, {4}}, &s), (std::vector<float>{12}));
    EXPECT_EQ(s, (std::vector<int>{}));
}

TEST(Einsum, BadEquationsFailAtCreate) {
    EXPECT_TRUE(createFails(einsumModel("ij,jk->ik", {{2, 3}}), "einsum", "operand terms"));
    EXPECT_TRUE(createFails(einsumModel("ij,jk->ik", {{2, 3}, {4, 2}}), "einsum", "label 'j'"));
    EXPECT_TRUE(createFails(einsumModel("ij->k", {{2, 3}}), "einsum", "not in any input"));
    EXPECT_TRUE(createFails(einsumModel("ij->ii", {{2, 3}}), "einsum", "repeated"));
    EXPECT_TRUE(createFails(einsumModel("i1->i", {{2, 3}}), "einsum", "invalid character"));
    EXPECT_TRUE(createFails(einsumModel("ijk->i", {{2, 3}}), "einsum", "rank"));
    EXPECT_TRUE(createFails(einsumModel("...ij->ij", {{2, 2, 3}}), "einsum", "'...'"));
    EXPECT_TRUE(createFails(einsumModel("ii->i", {{2, 3}}), "einsum", "label 'i'"));
    EXPECT_TRUE(createFails(einsumModel("ii->i", {{1, 3}}), "einsum", "repeated label"));
    EXPECT_TRUE(createFails(einsumModel("i.j->i", {{2, 3}}), "einsum", "ellipsis"));
    EXPECT_TRUE(createFails(einsumModel("i,i->i", {{2}, {2}}, Schema::DataType::DT_FLOAT, Schema::DataType::DT_INT32),
                            "einsum", "type"));
}
