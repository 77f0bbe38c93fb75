// The packed-layout convolution tile kernels (PackedConvTile) of every ISA tier this CPU has against a
// plain double loop: every P <= pcPMax and Q <= pcQMax, last-block lanes 1..16, a permuted subset of
// taps, position strides 16 / 32, accumulate 0 / 1, fused activations 0..3 (3: HardSwish, SiLU, SiLU
// below Precision_High), prefetch 0 / 1, 1..3 runs
// of the tile along its positions (PackedConvTile::runs), output
// channels in the last block (yLastLanes: skipped lanes must read 0) and half weights (wHalf) on the
// tiers that take them. Input padding lanes,
// weights of unused taps / lanes and the gaps between output blocks hold NaN or sentinels, so a
// kernel that reads or writes outside the tile fails.
#include <gtest/gtest.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <algorithm>
#include <random>
#include <string>
#include <vector>
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "core/TensorUtils.hpp"

using namespace MNN;

namespace {

std::vector<float> randomVec(size_t n, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> d(-1.0f, 1.0f);
    std::vector<float> v(n);
    for (auto& e : v) {
        e = d(gen);
    }
    return v;
}

double refAct(double v, int act, int unaryOp, double lo, double hi) {
    switch (act) {
        case 1:
            return v > 0.0 ? v : 0.0;
        case 2:
            return std::min(std::max(v, lo), hi);
        case 3:
            if (unaryOp == (int)VecUnaryOp::SILU || unaryOp == (int)VecUnaryOp::SILU_FAST) {
                return v / (1.0 + exp(-v));
            }
            return v * std::min(std::max(v + 3.0, 0.0), 6.0) / 6.0;  // HARD_SWISH
        default:
            return v;
    }
}

struct KernelCase {
    int P, Q, kBlocks, kLast, xs, accumulate, act;
    int prefetch = 0;     // PackedConvTile::prefetch (a hint: same results)
    bool half = false;    // weights through PackedConvTile::wHalf (the oracle uses the rounded weights)
    int yLastLanes = 16;  // PackedConvTile::yLastLanes: lanes at or past it in block Q - 1 hold the value or 0
    int runs = 1;         // PackedConvTile::runs: P * runs positions
    int unaryOp = -1;     // act 3's VecUnaryOp (-1: HardSwish, SiLU or SILU_FAST by P and kLast)
};

// the yLastLanes a case runs with, spread over the cases
int pickLastLanes(int i) {
    static const int kLanes[5] = {16, 8, 3, 12, 1};
    return kLanes[i % 5];
}

// returns an empty string when the tile matches, else a description of the first mismatch
// (yOut: the output buffer after the kernel, block rows yBlockStride = P * runs * 16 + 32 apart)
std::string checkTile(const CPUCoreFunctions& f, const KernelCase& c, unsigned seed, int* skipped,
                      std::vector<float>* yOut = nullptr) {
    const int tapsAll = 5;
    const int taps = 3;
    const int32_t tapIdx[taps] = {3, 0, 4};
    const int P = c.P * c.runs, Q = c.Q;  // positions of all runs
    // input: kBlocks blocks, each long enough for the widest tap offset plus P positions
    const int32_t tapOff[taps] = {0, 5 * 16, 2 * 16};
    const int64_t posSpan = (int64_t)(P - 1) * c.xs + 16;
    const int64_t blockStride = 5 * 16 + posSpan + 16 * 3;
    std::vector<float> x = randomVec((size_t)(blockStride * c.kBlocks), seed);
    const float nan = NAN;
    // lanes past kLast in the last block are never read: NaN there
    for (int64_t o = (int64_t)(c.kBlocks - 1) * blockStride; o < (int64_t)c.kBlocks * blockStride; ++o) {
        if (o % 16 >= c.kLast) {
            x[(size_t)o] = nan;
        }
    }
    // weights: [kb][tapsAll][16][Q * 16]; unused taps and lanes past kLast are NaN
    const int64_t wRow = (int64_t)Q * 16;
    std::vector<float> w = randomVec((size_t)(c.kBlocks * tapsAll * 16 * wRow), seed + 1);
    for (int kb = 0; kb < c.kBlocks; ++kb) {
        for (int tp = 0; tp < tapsAll; ++tp) {
            const bool used = tp == 3 || tp == 0 || tp == 4;
            for (int i = 0; i < 16; ++i) {
                const bool lane = kb + 1 < c.kBlocks || i < c.kLast;
                if (used && lane) {
                    continue;
                }
                for (int64_t j = 0; j < wRow; ++j) {
                    w[(size_t)((((int64_t)kb * tapsAll + tp) * 16 + i) * wRow + j)] = nan;
                }
            }
        }
    }
    std::vector<uint16_t> wh;
    if (c.half) {
        wh.resize(w.size());
        for (size_t i = 0; i < w.size(); ++i) {
            wh[i] = TensorUtils::floatToFp16(w[i]);
            w[i] = TensorUtils::fp16ToFloat(wh[i]);  // what the kernel multiplies by
        }
    }
    std::vector<float> bias = randomVec((size_t)Q * 16, seed + 2);
    const int64_t yBlockStride = (int64_t)P * 16 + 32;
    const float sentinel = 12345.0f;
    std::vector<float> y((size_t)(yBlockStride * Q + 16), sentinel);
    std::vector<float> yInit = randomVec(y.size(), seed + 3);
    for (int q = 0; q < Q; ++q) {
        for (int i = 0; i < P * 16; ++i) {
            y[(size_t)(q * yBlockStride + i)] = yInit[(size_t)(q * yBlockStride + i)];
        }
    }
    GemmPost post;
    post.act = c.act;
    post.lo = -0.25f;
    post.hi = 0.5f;
    post.unary = f.unaryF32;
    static const VecUnaryOp kInRegs[3] = {VecUnaryOp::HARD_SWISH, VecUnaryOp::SILU, VecUnaryOp::SILU_FAST};
    post.unaryOp = c.unaryOp >= 0 ? c.unaryOp : (int)kInRegs[(c.P + c.kLast) % 3];
    PackedConvTile t;
    t.x = x.data();
    t.xPosStride = c.xs;
    t.xBlockStride = blockStride;
    t.kBlocks = c.kBlocks;
    t.kLast = c.kLast;
    t.tapOff = tapOff;
    t.tapIdx = tapIdx;
    t.taps = taps;
    t.tapsAll = tapsAll;
    t.w = c.half ? nullptr : w.data();
    t.wHalf = c.half ? wh.data() : nullptr;
    t.bias = bias.data();
    t.y = y.data();
    t.yBlockStride = yBlockStride;
    t.P = c.P;
    t.runs = c.runs;
    t.Q = Q;
    t.accumulate = c.accumulate;
    t.post = c.act ? &post : nullptr;
    t.prefetch = c.prefetch;
    t.yLastLanes = c.yLastLanes;
    f.packedConv(&t);
    if (yOut) {
        *yOut = y;
    }
    const int K = c.kBlocks * taps * 16;
    char buf[256];
    for (int q = 0; q < Q; ++q) {
        for (int p = 0; p < P; ++p) {
            for (int l = 0; l < 16; ++l) {
                const size_t yi = (size_t)(q * yBlockStride + p * 16 + l);
                double acc = c.accumulate ? (double)yInit[yi] : (double)bias[(size_t)(q * 16 + l)];
                for (int kb = 0; kb < c.kBlocks; ++kb) {
                    const int lanes = kb + 1 == c.kBlocks ? c.kLast : 16;
                    for (int tp = 0; tp < taps; ++tp) {
                        for (int i = 0; i < lanes; ++i) {
                            const double xv = x[(size_t)(kb * blockStride + tapOff[tp] + (int64_t)p * c.xs + i)];
                            const double wv =
                                w[(size_t)((((int64_t)kb * tapsAll + tapIdx[tp]) * 16 + i) * wRow + q * 16 + l)];
                            acc += xv * wv;
                        }
                    }
                }
                const double want = refAct(acc, c.act, post.unaryOp, post.lo, post.hi);
                const double tol = 1e-5 * fabs(want) + 2e-6 * (K + 1);
                // a lane past the last block's channels may be skipped (0) where yLastLanes <= 8
                const bool skippable = q == Q - 1 && l >= c.yLastLanes && l >= 8 && c.yLastLanes <= 8;
                if (skippable && y[yi] == 0.0f) {
                    ++*skipped;
                    continue;
                }
                if (!(fabs((double)y[yi] - want) <= tol)) {
                    snprintf(buf, sizeof(buf), "q %d p %d l %d: got %g want %g", q, p, l, (double)y[yi], want);
                    return buf;
                }
            }
        }
        // the gap after each block row is untouched
        for (int64_t i = (int64_t)P * 16; i < yBlockStride; ++i) {
            if (y[(size_t)(q * yBlockStride + i)] != sentinel) {
                snprintf(buf, sizeof(buf), "wrote past block row %d at %lld", q, (long long)i);
                return buf;
            }
        }
    }
    return "";
}

}  // namespace

TEST(PackedConvKernel, EveryTierMatchesPlainLoops) {
    const int best = (int)cpuFeatures().best;
    for (int tier = 0; tier <= best; ++tier) {
        const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
        ASSERT_NE(f.packedConv, nullptr);
        char name[64];
        snprintf(name, sizeof(name), "pconv_%dx%d__%s", f.pcPMax, f.pcQMax * 16, cpuTierName((CPUTier)tier));
        EXPECT_EQ(std::string(f.packedConvName), name);
        int cases = 0, skipped = 0;
        for (int P = 1; P <= f.pcPMax; ++P) {
            for (int Q = 1; Q <= f.pcQMax; ++Q) {
                for (int kLast = 1; kLast <= 16; ++kLast) {
                    for (int xs : {16, 32}) {
                        for (int accumulate = 0; accumulate < 2; ++accumulate) {
                            KernelCase c;
                            c.P = P;
                            c.Q = Q;
                            c.kBlocks = 1 + (kLast + xs / 16) % 2;
                            c.kLast = kLast;
                            c.xs = xs;
                            c.accumulate = accumulate;
                            c.act = (P + kLast + accumulate + xs / 16) % 4;
                            c.prefetch = (P + kLast) % 2;
                            c.yLastLanes = pickLastLanes(P + kLast + xs / 16 + accumulate);
                            c.runs = 1 + (P + kLast + accumulate) % 3;
                            const unsigned seed = (unsigned)(P * 1000 + Q * 100 + kLast * 4 + xs / 16 + accumulate);
                            const std::string err = checkTile(f, c, seed, &skipped);
                            ASSERT_EQ(err, "")
                                << f.packedConvName << " P " << P << " Q " << Q << " kLast " << kLast << " kBlocks "
                                << c.kBlocks << " xs " << xs << " acc " << accumulate << " act " << c.act
                                << " prefetch " << c.prefetch << " yLastLanes " << c.yLastLanes << " runs " << c.runs;
                            ++cases;
                        }
                    }
                }
            }
        }
        EXPECT_EQ(cases, f.pcPMax * f.pcQMax * 16 * 4);
        if ((CPUTier)tier == CPUTier::AVX512) {
            EXPECT_GT(skipped, 0);  // its half-block tiles ran
        }
    }
}

TEST(PackedConvKernel, HalfWeightTilesMatchPlainLoops) {
    // the tiers whose kernel takes IEEE half weights (GEMV and streamed Winograd weights at
    // Precision_Normal): every P <= pcHalfTileP
    const int best = (int)cpuFeatures().best;
    int cases = 0;
    for (int tier = 0; tier <= best; ++tier) {
        const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
        EXPECT_GE(f.pcHalfTileP, f.pcHalfMaxP) << f.packedConvName;
        for (int P = 1; P <= f.pcHalfTileP; ++P) {
            for (int Q = 1; Q <= f.pcQMax; ++Q) {
                for (int kLast = 1; kLast <= 16; ++kLast) {
                    KernelCase c;
                    c.P = P;
                    c.Q = Q;
                    c.kBlocks = 1 + kLast % 3;
                    c.kLast = kLast;
                    c.xs = kLast % 2 ? 16 : 48;
                    c.accumulate = kLast % 5 == 0;
                    c.act = (P + kLast) % 4;
                    c.prefetch = (P + Q + kLast) % 2;
                    c.half = true;
                    c.yLastLanes = pickLastLanes(P + Q + kLast);
                    int skipped = 0;
                    const std::string err = checkTile(f, c, (unsigned)(P * 300 + Q * 40 + kLast), &skipped);
                    ASSERT_EQ(err, "") << f.packedConvName << " half P " << P << " Q " << Q << " kLast " << kLast
                                       << " yLastLanes " << c.yLastLanes;
                    ++cases;
                }
            }
        }
    }
    if (cpuFeatures().best >= CPUTier::AVX2) {
        EXPECT_GT(cases, 0);
    }
}

TEST(PackedConvKernel, EveryActivationOnTheWidestTile) {
    // each activation with and without accumulation at the largest P x Q of every tier
    const int best = (int)cpuFeatures().best;
    for (int tier = 0; tier <= best; ++tier) {
        const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
        for (int act = 0; act < 4; ++act) {
            for (int accumulate = 0; accumulate < 2; ++accumulate) {
                for (int kLast : {3, 16}) {
                    for (int lastLanes : {16, 5}) {
                        KernelCase c{f.pcPMax, f.pcQMax, 2, kLast, 16, accumulate, act};
                        c.yLastLanes = lastLanes;
                        int skipped = 0;
                        const std::string err =
                            checkTile(f, c, 77u + (unsigned)(act * 4 + accumulate + kLast), &skipped);
                        ASSERT_EQ(err, "") << f.packedConvName << " act " << act << " acc " << accumulate << " kLast "
                                           << kLast << " yLastLanes " << lastLanes;
                    }
                }
            }
        }
    }
}

TEST(PackedConvKernel, InRegisterActivationsEqualTheUnaryKernel) {
    // SiLU (both accuracies) and HardSwish, applied in registers by the tiers that do (AVX2, AVX-512),
    // give the table's unary kernel's bits on the tile's unactivated output: the unary kernels'
    // bounds (ElementwiseFast.UnaryKernelsAgainstDoubleOnEveryTier) then hold for the fused ones,
    // which checkTile's accumulation tolerance could not show
    const int best = (int)cpuFeatures().best;
    const VecUnaryOp ops[3] = {VecUnaryOp::SILU, VecUnaryOp::SILU_FAST, VecUnaryOp::HARD_SWISH};
    for (int tier = 0; tier <= best; ++tier) {
        const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
        for (int P = 1; P <= f.pcPMax; ++P) {
            for (int Q = 1; Q <= f.pcQMax; ++Q) {
                for (VecUnaryOp op : ops) {
                    KernelCase c{P, Q, 2, 16, 16, P % 2, 0};
                    c.yLastLanes = (P + Q) % 2 ? 16 : 5;  // 5: AVX-512's half-block (ymm) tiles
                    c.runs = 1 + P % 2;
                    const unsigned seed = 500u + (unsigned)(P * 16 + Q);
                    int skipped = 0;
                    std::vector<float> plain, fused;
                    ASSERT_EQ(checkTile(f, c, seed, &skipped, &plain), "");
                    c.act = 3;
                    c.unaryOp = (int)op;
                    ASSERT_EQ(checkTile(f, c, seed, &skipped, &fused), "");
                    ASSERT_EQ(plain.size(), fused.size());
                    const int64_t yBlockStride = (int64_t)P * c.runs * 16 + 32;
                    for (int q = 0; q < Q; ++q) {
                        float* row = plain.data() + q * yBlockStride;
                        f.unaryF32((int)op, row, row, (int64_t)P * c.runs * 16, 0.0f, 0.0f);
                    }
                    for (size_t i = 0; i < plain.size(); ++i) {
                        ASSERT_EQ(memcmp(&plain[i], &fused[i], sizeof(float)), 0)
                            << f.packedConvName << " op " << (int)op << " P " << P << " Q " << Q << " at " << i
                            << ": fused " << fused[i] << " unary " << plain[i];
                    }
                }
            }
        }
    }
}

TEST(PackedConvKernel, WideTilesMatchPlainLoops) {
    // the tiers with a wide tile (pcWideP positions, one block, a full last block: the 16-tile
    // Winograd GEMMs) with float and half weights, every K tail, both strides, accumulation,
    // activations, prefetch and runs
    const int best = (int)cpuFeatures().best;
    int cases = 0;
    for (int tier = 0; tier <= best; ++tier) {
        const auto& f = cpuCoreFunctionsFor((CPUTier)tier);
        if (f.pcWideP == 0) {
            continue;
        }
        EXPECT_GT(f.pcWideP, f.pcPMax) << f.packedConvName;
        for (int half = 0; half < 2; ++half) {
            for (int kLast = 1; kLast <= 16; ++kLast) {
                for (int xs : {16, 32}) {
                    KernelCase c;
                    c.P = f.pcWideP;
                    c.Q = 1;
                    c.kBlocks = 1 + (kLast + half) % 3;
                    c.kLast = kLast;
                    c.xs = xs;
                    c.accumulate = (kLast + xs / 16) % 2;
                    c.act = (kLast + half) % 4;
                    c.prefetch = kLast % 2;
                    c.half = half != 0;
                    c.yLastLanes = kLast % 3 == 0 ? 12 : 16;
                    c.runs = 1 + kLast % 2;
                    int skipped = 0;
                    const std::string err = checkTile(f, c, (unsigned)(900 + kLast * 4 + half * 2 + xs / 16), &skipped);
                    ASSERT_EQ(err, "") << f.packedConvName << " wide P " << c.P << " half " << half << " kLast "
                                       << kLast << " xs " << xs;
                    ++cases;
                }
            }
        }
    }
    if (cpuFeatures().best >= CPUTier::AVX512) {
        EXPECT_EQ(cases, 64);
    }
}
