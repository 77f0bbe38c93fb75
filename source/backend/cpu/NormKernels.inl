// One row of LayerNorm / RMSNorm, written once with GCC/Clang vector extensions and compiled once
// per ISA tier: the including file defines MNN_NORM_VEC_BYTES (16 / 32 / 64) and includes this
// inside its own anonymous namespace (internal linkage: no ODR hazard across tiers), after
// <math.h>, <stdint.h>, <string.h> and CPUCoreFunctions.hpp.
//
// Normal precision: the sums run in float vectors (4 independent accumulators) that are flushed
// into double every kNormBlock elements, so the float rounding error stays bounded by the block
// length however long the row is; the output is (x - mean) * inv * scale + bias in float.
// High precision (kNormHigh): the same sums and the output in double vectors, as the reference.

// the double vectors are twice the ISA's width (two registers each); every function here has
// internal linkage, so the ABI note on passing them is moot
#pragma GCC diagnostic ignored "-Wpsabi"

typedef float NmVec __attribute__((vector_size(MNN_NORM_VEC_BYTES)));
typedef double NmDVec __attribute__((vector_size(MNN_NORM_VEC_BYTES * 2)));
constexpr int kNmLanes = MNN_NORM_VEC_BYTES / 4;
constexpr int64_t kNormBlock = 1024;

static inline NmVec nmLoad(const float* p) {
    NmVec v;
    memcpy(&v, p, sizeof(v));
    return v;
}
static inline void nmStore(float* p, NmVec v) {
    memcpy(p, &v, sizeof(v));
}
static inline NmVec nmSplat(float s) {
    NmVec v = {};
    return v + s;
}
static inline NmDVec nmDSplat(double s) {
    NmDVec v = {};
    return v + s;
}
static inline NmDVec nmWiden(NmVec v) {
    return __builtin_convertvector(v, NmDVec);
}
static inline double nmHsum(NmVec v) {
    double s = 0.0;
    for (int j = 0; j < kNmLanes; ++j) {
        s += (double)v[j];
    }
    return s;
}
static inline double nmHsumD(NmDVec v) {
    double s = 0.0;
    for (int j = 0; j < kNmLanes; ++j) {
        s += v[j];
    }
    return s;
}

/** sum of (x[i] - c)^2 (sq) or of x[i] (plain), float vectors flushed to double per block */
template <bool SQ>
static double nmSumF(const float* x, int64_t n, float c) {
    constexpr int L = kNmLanes;
    const NmVec cv = nmSplat(c);
    double total = 0.0;
    int64_t i = 0;
    while (i + L <= n) {
        const int64_t end = n < i + kNormBlock ? n : i + kNormBlock;
        NmVec a0 = {}, a1 = {}, a2 = {}, a3 = {};
        for (; i + 4 * L <= end; i += 4 * L) {
            NmVec v0 = nmLoad(x + i) - cv, v1 = nmLoad(x + i + L) - cv;
            NmVec v2 = nmLoad(x + i + 2 * L) - cv, v3 = nmLoad(x + i + 3 * L) - cv;
            a0 += SQ ? v0 * v0 : v0;
            a1 += SQ ? v1 * v1 : v1;
            a2 += SQ ? v2 * v2 : v2;
            a3 += SQ ? v3 * v3 : v3;
        }
        for (; i + L <= end; i += L) {
            NmVec v0 = nmLoad(x + i) - cv;
            a0 += SQ ? v0 * v0 : v0;
        }
        total += nmHsum((a0 + a1) + (a2 + a3));
    }
    for (; i < n; ++i) {
        const float v = x[i] - c;
        total += SQ ? (double)v * v : (double)v;
    }
    return total;
}

/** the same sums in double vectors: sum of (x[i] - c)^2 or of x[i] - c */
template <bool SQ>
static double nmSumD(const float* x, int64_t n, double c) {
    constexpr int L = kNmLanes;
    const NmDVec cv = nmDSplat(c);
    NmDVec a0 = {}, a1 = {};
    int64_t i = 0;
    for (; i + 2 * L <= n; i += 2 * L) {
        NmDVec v0 = nmWiden(nmLoad(x + i)) - cv, v1 = nmWiden(nmLoad(x + i + L)) - cv;
        a0 += SQ ? v0 * v0 : v0;
        a1 += SQ ? v1 * v1 : v1;
    }
    for (; i + L <= n; i += L) {
        NmDVec v0 = nmWiden(nmLoad(x + i)) - cv;
        a0 += SQ ? v0 * v0 : v0;
    }
    double total = nmHsumD(a0 + a1);
    for (; i < n; ++i) {
        const double v = (double)x[i] - c;
        total += SQ ? v * v : v;
    }
    return total;
}

static void nmRow(const float* x, float* y, int64_t n, const float* scale, const float* bias, float eps, int flags,
                  float* stats) {
    constexpr int L = kNmLanes;
    const bool rms = (flags & MNN::kNormRms) != 0;
    const bool high = (flags & MNN::kNormHigh) != 0;
    double mean = 0.0, var = 0.0;
    if (n > 0) {
        if (high) {
            mean = rms ? 0.0 : nmSumD<false>(x, n, 0.0) / (double)n;
            var = nmSumD<true>(x, n, mean) / (double)n;
        } else {
            mean = rms ? 0.0 : (double)(float)(nmSumF<false>(x, n, 0.0f) / (double)n);
            var = nmSumF<true>(x, n, (float)mean) / (double)n;
        }
    }
    const double inv = 1.0 / sqrt(var + (double)eps);
    stats[0] = (float)mean;
    stats[1] = (float)inv;
    int64_t i = 0;
    if (high) {
        const NmDVec mv = nmDSplat(mean), iv = nmDSplat(inv);
        for (; i + L <= n; i += L) {
            NmDVec v = (nmWiden(nmLoad(x + i)) - mv) * iv;
            if (scale) {
                v *= nmWiden(nmLoad(scale + i));
            }
            if (bias) {
                v += nmWiden(nmLoad(bias + i));
            }
            nmStore(y + i, __builtin_convertvector(v, NmVec));
        }
        for (; i < n; ++i) {
            double v = ((double)x[i] - mean) * inv;
            v = scale ? v * scale[i] : v;
            v = bias ? v + bias[i] : v;
            y[i] = (float)v;
        }
        return;
    }
    const float mf = (float)mean, invf = (float)inv;
    const NmVec mv = nmSplat(mf), iv = nmSplat(invf);
    for (; i + L <= n; i += L) {
        NmVec v = (nmLoad(x + i) - mv) * iv;
        if (scale) {
            v *= nmLoad(scale + i);
        }
        if (bias) {
            v += nmLoad(bias + i);
        }
        nmStore(y + i, v);
    }
    for (; i < n; ++i) {
        float v = (x[i] - mf) * invf;
        v = scale ? v * scale[i] : v;
        v = bias ? v + bias[i] : v;
        y[i] = v;
    }
}
