// MatMulInteger / QLinearMatMul against a direct triple loop written here: uint8 / int8 operands in
// every combination, per-tensor / per-row / per-column / N-D zero points, batch broadcast, 1-D
// operands, requantization with rounding half to even and saturation; bad parameters fail at
// createSession.
#include <math.h>
#include <random>
#include "OpTestHelpers.hpp"

using namespace MNN;
using namespace MNN::Test;

namespace {
template <typename T>
std::vector<T> randomInts(std::mt19937& rng, size_t n) {
    std::uniform_int_distribution<int> d(std::is_signed<T>::value ? -128 : 0, std::is_signed<T>::value ? 127 : 255);
    std::vector<T> v(n);
    for (auto& x : v) {
        x = (T)d(rng);
    }
    return v;
}

int64_t product(const std::vector<int>& d) {
    int64_t p = 1;
    for (int x : d) {
        p *= x;
    }
    return p;
}

/**
 * acc for A [batch..., M, K] and B [batch..., K, N] of the same batch dims (or B's batch absent),
 * zero points per tensor (1 value), per row / column (M / N values) or per matrix row / column
 * (batch * M / batch * N values)
 */
template <typename TA, typename TB>
std::vector<int64_t> referenceMatMul(const std::vector<TA>& a, const std::vector<TB>& b, int batch, int bBatch, int M,
                                     int K, int N, const std::vector<int>& za, const std::vector<int>& zb) {
    std::vector<int64_t> y((size_t)batch * M * N, 0);
    for (int o = 0; o < batch; ++o) {
        const int ob = bBatch == 1 ? 0 : o;
        for (int i = 0; i < M; ++i) {
            const int zai = za.empty() ? 0 : za.size() == 1 ? za[0] : za.size() == (size_t)M ? za[i] : za[o * M + i];
            for (int j = 0; j < N; ++j) {
                const int zbj = zb.empty()               ? 0
                                : zb.size() == 1         ? zb[0]
                                : zb.size() == (size_t)N ? zb[j]
                                                         : zb[ob * N + j];
                int64_t s = 0;
                for (int k = 0; k < K; ++k) {
                    s += (int64_t)((int)a[((size_t)o * M + i) * K + k] - zai) *
                         (int64_t)((int)b[((size_t)ob * K + k) * N + j] - zbj);
                }
                y[((size_t)o * M + i) * N + j] = s;
            }
        }
    }
    return y;
}

template <typename TA, typename TB>
void checkMatMulInteger(const std::vector<int>& aDims, const std::vector<int>& bDims, const std::vector<int>& zaDims,
                        const std::vector<int>& zbDims, const std::vector<int>& yDims, uint32_t seed) {
    std::mt19937 rng(seed);
    auto a = randomInts<TA>(rng, (size_t)product(aDims));
    auto b = randomInts<TB>(rng, (size_t)product(bDims));
    // zero point dims: {} absent, {-1} rank 0
    auto zeroDims = [](const std::vector<int>& d) { return d == std::vector<int>{-1} ? std::vector<int>{} : d; };
    std::vector<TA> za = zaDims.empty() ? std::vector<TA>{} : randomInts<TA>(rng, product(zeroDims(zaDims)));
    std::vector<TB> zb = zbDims.empty() ? std::vector<TB>{} : randomInts<TB>(rng, product(zeroDims(zbDims)));
    ModelBuilder mb;
    mb.input("a", aDims, dataTypeOf<TA>());
    constantOf<TB>(mb, "b", bDims, b);
    std::vector<std::string> ins = {"a", "b", "", ""};
    if (!za.empty()) {
        constantOf<TA>(mb, "za", zeroDims(zaDims), za);
        ins[2] = "za";
    }
    if (!zb.empty()) {
        constantOf<TB>(mb, "zb", zeroDims(zbDims), zb);
        ins[3] = "zb";
    }
    while (!ins.empty() && ins.back().empty()) {
        ins.pop_back();
    }
    mb.op(Schema::OpType::MatMulInteger, "mmi", ins, {"y"});
    mb.output("y");
    auto at = makeTyped<TA>(aDims, a);
    auto r = runModel(mb.finish(), {{"a", at.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(shapeOf(r.outputs["y"].get()), yDims);
    auto got = valuesOf<int32_t>(r.outputs["y"].get());
    // reference on the promoted 3-D view
    const int K = aDims.back();
    const int M = aDims.size() == 1 ? 1 : aDims[aDims.size() - 2];
    const int N = bDims.size() == 1 ? 1 : bDims.back();
    auto lead = [](std::vector<int> d, size_t n) {
        d.resize(d.size() > n ? d.size() - n : 0);
        return (int)product(d);
    };
    const int batch = lead(aDims, 2), bBatch = lead(bDims, 2);
    std::vector<int> zav(za.begin(), za.end()), zbv(zb.begin(), zb.end());
    auto want = referenceMatMul(a, b, batch, bBatch, M, K, N, zav, zbv);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_EQ((int64_t)got[i], want[i]) << "element " << i;
    }
}
}  // namespace

TEST(MatMulInteger, HandComputed) {
    // A - 12 = [[-1, -5, -9], [-2, -6, -10], ...]; first row: -1 - 10 - 27 = -38, -4 - 25 - 54 = -83
    ModelBuilder mb;
    constantOf<uint8_t>(mb, "a", {4, 3}, {11, 7, 3, 10, 6, 2, 9, 5, 1, 8, 4, 0});
    constantOf<uint8_t>(mb, "b", {3, 2}, {1, 4, 2, 5, 3, 6});
    constantOf<uint8_t>(mb, "za", {}, {12});
    constantOf<uint8_t>(mb, "zb", {}, {0});
    mb.op(Schema::OpType::MatMulInteger, "mmi", {"a", "b", "za", "zb"}, {"y"});
    mb.output("y");
    auto r = runModel(mb.finish(), {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<int32_t>(r.outputs["y"].get()),
              (std::vector<int32_t>{-38, -83, -44, -98, -50, -113, -56, -128}));
}

TEST(MatMulInteger, TypesAndZeroPointForms) {
    checkMatMulInteger<uint8_t, uint8_t>({5, 7}, {7, 6}, {}, {}, {5, 6}, 1);
    checkMatMulInteger<int8_t, int8_t>({5, 7}, {7, 6}, {1}, {6}, {5, 6}, 2);
    checkMatMulInteger<uint8_t, int8_t>({5, 7}, {7, 6}, {5}, {-1}, {5, 6}, 3);
    checkMatMulInteger<int8_t, uint8_t>({5, 7}, {7, 6}, {-1}, {1}, {5, 6}, 4);
}

TEST(MatMulInteger, BatchBroadcastAndNdZeroPoints) {
    // B 2-D shared by every matrix of A; a_zero_point [2, 3, 4, 1] per matrix row
    checkMatMulInteger<uint8_t, uint8_t>({2, 3, 4, 9}, {9, 5}, {2, 3, 4, 1}, {5}, {2, 3, 4, 5}, 5);
    // batched B with [3, 1, 5] zero points per matrix column
    checkMatMulInteger<int8_t, uint8_t>({3, 4, 9}, {3, 9, 5}, {}, {3, 1, 5}, {3, 4, 5}, 6);
}

TEST(MatMulInteger, VectorOperands) {
    checkMatMulInteger<uint8_t, uint8_t>({9}, {9, 4}, {}, {}, {4}, 7);
    checkMatMulInteger<uint8_t, int8_t>({3, 9}, {9}, {3}, {}, {3}, 8);
}

TEST(MatMulInteger, ZeroSizeDims) {
    checkMatMulInteger<uint8_t, uint8_t>({0, 4}, {4, 3}, {}, {}, {0, 3}, 9);
    checkMatMulInteger<uint8_t, uint8_t>({2, 0}, {0, 3}, {}, {}, {2, 3}, 10);
}

TEST(MatMulInteger, BadZeroPointFailsAtCreate) {
    ModelBuilder mb;
    mb.input("a", {4, 3}, Schema::DataType::DT_UINT8);
    constantOf<uint8_t>(mb, "b", {3, 2}, {1, 2, 3, 4, 5, 6});
    constantOf<uint8_t>(mb, "zb", {3}, {1, 2, 3});
    mb.op(Schema::OpType::MatMulInteger, "mmi", {"a", "b", "", "zb"}, {"y"});
    mb.output("y");
    EXPECT_TRUE(createFails(mb.finish(), "mmi", "b_zero_point"));
    ModelBuilder m2;
    m2.input("a", {4, 3}, Schema::DataType::DT_UINT8);
    constantOf<int8_t>(m2, "za", {}, {1});
    constantOf<uint8_t>(m2, "b", {3, 2}, {1, 2, 3, 4, 5, 6});
    m2.op(Schema::OpType::MatMulInteger, "mmi", {"a", "b", "za"}, {"y"});
    m2.output("y");
    EXPECT_TRUE(createFails(m2.finish(), "mmi", "a_zero_point"));
    ModelBuilder m3;
    m3.input("a", {4, 3});
    constantOf<uint8_t>(m3, "b", {3, 2}, {1, 2, 3, 4, 5, 6});
    m3.op(Schema::OpType::MatMulInteger, "mmi", {"a", "b"}, {"y"});
    m3.output("y");
    EXPECT_TRUE(createFails(m3.finish(), "mmi", "uint8 and int8"));
}

namespace {
template <typename TA, typename TB, typename TY>
void checkQLinearMatMul(int M, int K, int N, bool perRow, bool perColumn, uint32_t seed) {
    std::mt19937 rng(seed);
    auto a = randomInts<TA>(rng, (size_t)M * K);
    auto b = randomInts<TB>(rng, (size_t)K * N);
    std::uniform_real_distribution<float> sd(0.001f, 0.05f);
    std::vector<float> as(perRow ? M : 1), bs(perColumn ? N : 1), ys(perRow ? M : 1);
    for (auto& v : as) {
        v = sd(rng);
    }
    for (auto& v : bs) {
        v = sd(rng);
    }
    for (auto& v : ys) {
        v = sd(rng) * 20.0f;
    }
    auto za = randomInts<TA>(rng, as.size());
    auto zb = randomInts<TB>(rng, bs.size());
    auto zy = randomInts<TY>(rng, ys.size());
    ModelBuilder mb;
    mb.input("a", {M, K}, dataTypeOf<TA>());
    mb.constant("as", {(int)as.size()}, as);
    constantOf<TA>(mb, "za", {(int)za.size()}, za);
    constantOf<TB>(mb, "b", {K, N}, b);
    mb.constant("bs", {(int)bs.size()}, bs);
    constantOf<TB>(mb, "zb", {(int)zb.size()}, zb);
    mb.constant("ys", {(int)ys.size()}, ys);
    constantOf<TY>(mb, "zy", {(int)zy.size()}, zy);
    mb.op(Schema::OpType::QLinearMatMul, "qmm", {"a", "as", "za", "b", "bs", "zb", "ys", "zy"}, {"y"});
    mb.output("y");
    auto at = makeTyped<TA>({M, K}, a);
    auto r = runModel(mb.finish(), {{"a", at.get()}});
    ASSERT_EQ(r.code, NO_ERROR);
    auto got = valuesOf<TY>(r.outputs["y"].get());
    ASSERT_EQ(got.size(), (size_t)M * N);
    const double lo = std::is_signed<TY>::value ? -128 : 0, hi = std::is_signed<TY>::value ? 127 : 255;
    int saturated = 0;
    for (int i = 0; i < M; ++i) {
        for (int j = 0; j < N; ++j) {
            int64_t acc = 0;
            for (int k = 0; k < K; ++k) {
                acc += (int64_t)((int)a[i * K + k] - za[perRow ? i : 0]) * ((int)b[k * N + j] - zb[perColumn ? j : 0]);
            }
            const float mult = as[perRow ? i : 0] * bs[perColumn ? j : 0] / ys[perRow ? i : 0];
            double v = std::nearbyint((double)acc * (double)mult) + (double)zy[perRow ? i : 0];
            saturated += v < lo || v > hi;
            v = std::min(hi, std::max(lo, v));
            ASSERT_EQ((double)got[i * N + j], v) << i << "," << j;
        }
    }
    EXPECT_GT(saturated, 0);  // the scales are chosen so that some outputs saturate
}
}  // namespace

TEST(QLinearMatMul, PerTensorAndPerRowColumn) {
    checkQLinearMatMul<uint8_t, uint8_t, uint8_t>(6, 16, 7, false, false, 11);
    checkQLinearMatMul<int8_t, int8_t, int8_t>(6, 16, 7, true, true, 12);
    checkQLinearMatMul<uint8_t, int8_t, int8_t>(5, 33, 4, false, true, 13);
}

TEST(QLinearMatMul, RoundsHalfToEven) {
    // acc = a * b = 1 * 5, 1 * 7; scale 0.5: 2.5 -> 2, 3.5 -> 4
    ModelBuilder mb;
    constantOf<uint8_t>(mb, "a", {1, 1}, {1});
    mb.constant("as", {}, {1.0f});
    constantOf<uint8_t>(mb, "za", {}, {0});
    constantOf<uint8_t>(mb, "b", {1, 2}, {5, 7});
    mb.constant("bs", {}, {0.5f});
    constantOf<uint8_t>(mb, "zb", {}, {0});
    mb.constant("ys", {}, {1.0f});
    constantOf<uint8_t>(mb, "zy", {}, {10});
    mb.op(Schema::OpType::QLinearMatMul, "qmm", {"a", "as", "za", "b", "bs", "zb", "ys", "zy"}, {"y"});
    mb.output("y");
    auto r = runModel(mb.finish(), {});
    ASSERT_EQ(r.code, NO_ERROR);
    EXPECT_EQ(valuesOf<uint8_t>(r.outputs["y"].get()), (std::vector<uint8_t>{12, 14}));
}

TEST(QLinearMatMul, MissingScaleFailsAtCreate) {
    ModelBuilder mb;
    mb.input("a", {2, 2}, Schema::DataType::DT_UINT8);
    constantOf<uint8_t>(mb, "za", {}, {0});
    constantOf<uint8_t>(mb, "b", {2, 2}, {1, 2, 3, 4});
    mb.constant("bs", {3}, {1, 1, 1});
    constantOf<uint8_t>(mb, "zb", {}, {0});
    mb.constant("ys", {}, {1.0f});
    constantOf<uint8_t>(mb, "zy", {}, {0});
    mb.constant("as", {}, {1.0f});
    mb.op(Schema::OpType::QLinearMatMul, "qmm", {"a", "as", "za", "b", "bs", "zb", "ys", "zy"}, {"y"});
    mb.output("y");
    EXPECT_TRUE(createFails(mb.finish(), "qmm", "b_scale"));
}
