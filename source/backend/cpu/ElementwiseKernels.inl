// Float32 elementwise kernels written once as plain loops and compiled once per ISA tier: each
// tier's file (ElementwiseKernels.cpp for scalar, x86/Elementwise_<isa>.cpp) includes this file
// inside its own anonymous namespace with its own compile flags, and the compiler vectorises the
// loops for that ISA. Everything here is branch-free per element (selects, no calls into libm), so
// the loops vectorise; transcendental functions use range reduction plus polynomials (Cephes-style
// coefficients), accurate to a few float ulp. NaN propagates, +-inf saturate like libm.
// No ODR hazard: every function has internal linkage in the including file.
// The including file includes <stdint.h>, <string.h> and CPUCoreFunctions.hpp first (and
// <immintrin.h> on the AVX-512 and AVX2 tiers, whose sigmoid / SiLU use intrinsics).

static inline float ewBitsToFloat(int32_t i) {
    float f;
    memcpy(&f, &i, sizeof(f));
    return f;
}

/** exp(x): n = round(x / ln2), r = x - n ln2 (two-part ln2), exp(r) by a degree-6 polynomial, then
 * scaled by 2^(n/2) * 2^(n - n/2) so that denormal results and the overflow to inf stay exact */
static inline float ewExp(float x) {
    const bool nan = x != x;
    float v = nan ? 0.0f : x;
    v = v < -104.0f ? -104.0f : v;
    v = v > 89.0f ? 89.0f : v;
    const float shifter = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
    const float n = (v * 1.44269504088896341f + shifter) - shifter;
    float r = v - n * 0.693359375f;
    r = r - n * -2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    const int32_t ni = (int32_t)n;
    const int32_t n1 = ni >> 1;
    const int32_t n2 = ni - n1;
    const float s1 = ewBitsToFloat((n1 + 127) << 23);
    const float s2 = ewBitsToFloat((n2 + 127) << 23);
    const float e = p * s1 * s2;
    return nan ? x : e;
}

/** sigmoid with e = exp(-|x|) <= 1: 1 / (1 + e) for x >= 0, e / (1 + e) below (no overflow, and
 * the tiny results of large negative x keep their relative accuracy) */
static inline float ewSigmoid(float x) {
    const float ax = x < 0.0f ? -x : x;
    const float e = ewExp(-ax);
    const float s = 1.0f / (1.0f + e);
    const float r = x < 0.0f ? e * s : s;
    return x != x ? x : r;
}

/** tanh: odd Taylor polynomial below 0.125 (where 1 - 2/(e^2x + 1) would cancel), else that form */
static inline float ewTanh(float x) {
    const float ax = x < 0.0f ? -x : x;
    const float x2 = x * x;
    float small = 62.0f / 2835.0f;
    small = small * x2 - 17.0f / 315.0f;
    small = small * x2 + 2.0f / 15.0f;
    small = small * x2 - 1.0f / 3.0f;
    small = small * x2 * x + x;
    const float e = ewExp(2.0f * ax);
    float big = 1.0f - 2.0f / (e + 1.0f);
    big = x < 0.0f ? -big : big;
    const float r = ax < 0.125f ? small : big;
    return x != x ? x : r;
}

/** erf by Abramowitz & Stegun 7.1.26 refined: |error| < 1.5e-7 */
static inline float ewErf(float x) {
    const float ax = x < 0.0f ? -x : x;
    const float t = 1.0f / (1.0f + 0.3275911f * ax);
    float p = 1.061405429f;
    p = p * t - 1.453152027f;
    p = p * t + 1.421413741f;
    p = p * t - 0.284496736f;
    p = p * t + 0.254829592f;
    p = p * t;
    const float r = 1.0f - p * ewExp(-ax * ax);
    const float s = x < 0.0f ? -r : r;
    return x != x ? x : s;
}

#if defined(__AVX512F__)
#include "backend/cpu/x86/Avx512Math.inl"
#elif defined(__AVX2__) && defined(__FMA__)
#include "backend/cpu/x86/Avx2Math.inl"
#endif

static void ewUnary(int op, const float* x, float* y, int64_t n, float a, float b) {
    switch ((MNN::VecUnaryOp)op) {
        case MNN::VecUnaryOp::RELU:
            for (int64_t i = 0; i < n; ++i) {
                const float v = x[i];
                y[i] = v < 0.0f ? 0.0f : v;
            }
            return;
        case MNN::VecUnaryOp::CLIP:
            for (int64_t i = 0; i < n; ++i) {
                float v = x[i];
                v = v < a ? a : v;
                y[i] = v > b ? b : v;
            }
            return;
        case MNN::VecUnaryOp::SIGMOID: {
            int64_t i = 0;
#if defined(__AVX512F__)
            for (; i + 16 <= n; i += 16) {
                _mm512_storeu_ps(y + i, ewSigmoid16(_mm512_loadu_ps(x + i)));
            }
#elif defined(__AVX2__) && defined(__FMA__)
            for (; i + 8 <= n; i += 8) {
                _mm256_storeu_ps(y + i, ewSigmoid8(_mm256_loadu_ps(x + i)));
            }
#endif
            for (; i < n; ++i) {
                y[i] = ewSigmoid(x[i]);
            }
            return;
        }
        case MNN::VecUnaryOp::SILU_FAST:
#if defined(__AVX512F__)
        {
            int64_t i = 0;
            for (; i + 16 <= n; i += 16) {
                const __m512 v = _mm512_loadu_ps(x + i);
                _mm512_storeu_ps(y + i, _mm512_mul_ps(v, ewSigmoid16Fast(v)));
            }
            for (; i < n; ++i) {
                y[i] = x[i] * ewSigmoid(x[i]);
            }
            return;
        }
#endif
        case MNN::VecUnaryOp::SILU: {
            int64_t i = 0;
#if defined(__AVX512F__)
            for (; i + 16 <= n; i += 16) {
                const __m512 v = _mm512_loadu_ps(x + i);
                _mm512_storeu_ps(y + i, _mm512_mul_ps(v, ewSigmoid16(v)));
            }
#elif defined(__AVX2__) && defined(__FMA__)
            for (; i + 8 <= n; i += 8) {
                _mm256_storeu_ps(y + i, ewSilu8(_mm256_loadu_ps(x + i)));
            }
#endif
            for (; i < n; ++i) {
                y[i] = x[i] * ewSigmoid(x[i]);
            }
            return;
        }
        case MNN::VecUnaryOp::HARD_SIGMOID:
            for (int64_t i = 0; i < n; ++i) {
                float v = a * x[i] + b;
                v = v < 0.0f ? 0.0f : v;
                y[i] = v > 1.0f ? 1.0f : v;
            }
            return;
        case MNN::VecUnaryOp::HARD_SWISH:
            for (int64_t i = 0; i < n; ++i) {
                float v = (x[i] + 3.0f) * (1.0f / 6.0f);  // x / 6 + 0.5 without cancellation near -3
                v = v < 0.0f ? 0.0f : v;
                v = v > 1.0f ? 1.0f : v;
                y[i] = x[i] * v;
            }
            return;
        case MNN::VecUnaryOp::TANH:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = ewTanh(x[i]);
            }
            return;
        case MNN::VecUnaryOp::EXP:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = ewExp(x[i]);
            }
            return;
        case MNN::VecUnaryOp::GELU:
            for (int64_t i = 0; i < n; ++i) {
                const float v = x[i];
                y[i] = 0.5f * v * (1.0f + ewErf(v * 0.70710678118654752f));
            }
            return;
        case MNN::VecUnaryOp::GELU_TANH:
            for (int64_t i = 0; i < n; ++i) {
                const float v = x[i];
                y[i] = 0.5f * v * (1.0f + ewTanh(0.79788456080286535588f * (v + 0.044715f * v * v * v)));
            }
            return;
        case MNN::VecUnaryOp::LEAKY_RELU:
            for (int64_t i = 0; i < n; ++i) {
                const float v = x[i];
                y[i] = v < 0.0f ? a * v : v;
            }
            return;
        case MNN::VecUnaryOp::ABS:
            for (int64_t i = 0; i < n; ++i) {
                const float v = x[i];
                y[i] = v < 0.0f ? -v : (v == 0.0f ? 0.0f : v);
            }
            return;
        case MNN::VecUnaryOp::NEG:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = -x[i];
            }
            return;
        case MNN::VecUnaryOp::SQUARE:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = x[i] * x[i];
            }
            return;
        case MNN::VecUnaryOp::RECIPROCAL:
            for (int64_t i = 0; i < n; ++i) {
                y[i] = 1.0f / x[i];
            }
            return;
    }
}

// NaN rules of ONNX Max / Min: a NaN operand gives NaN
static inline float ewMax(float x, float y) {
    const float m = x > y ? x : y;
    return x != x ? x : (y != y ? y : m);
}
static inline float ewMin(float x, float y) {
    const float m = x < y ? x : y;
    return x != x ? x : (y != y ? y : m);
}

#define MNN_EW_BINARY_LOOPS(EXPR)                    \
    if (mode == 0) {                                 \
        for (int64_t i = 0; i < n; ++i) {            \
            const float p = a[i], q = b[i];          \
            c[i] = (EXPR);                           \
        }                                            \
    } else if (mode == 1) {                          \
        const float q = b[0];                        \
        for (int64_t i = 0; i < n; ++i) {            \
            const float p = a[i];                    \
            c[i] = (EXPR);                           \
        }                                            \
    } else {                                         \
        const float p = a[0];                        \
        for (int64_t i = 0; i < n; ++i) {            \
            const float q = b[i];                    \
            c[i] = (EXPR);                           \
        }                                            \
    }                                                \
    return;

/** mode 0: c[i] = a[i] op b[i]; 1: c[i] = a[i] op b[0]; 2: c[i] = a[0] op b[i] */
static void ewBinary(int op, const float* a, const float* b, float* c, int64_t n, int mode) {
    switch ((MNN::VecBinaryOp)op) {
        case MNN::VecBinaryOp::ADD: MNN_EW_BINARY_LOOPS(p + q)
        case MNN::VecBinaryOp::SUB: MNN_EW_BINARY_LOOPS(p - q)
        case MNN::VecBinaryOp::MUL: MNN_EW_BINARY_LOOPS(p * q)
        case MNN::VecBinaryOp::DIV: MNN_EW_BINARY_LOOPS(p / q)
        case MNN::VecBinaryOp::MAX: MNN_EW_BINARY_LOOPS(ewMax(p, q))
        case MNN::VecBinaryOp::MIN: MNN_EW_BINARY_LOOPS(ewMin(p, q))
    }
}
#undef MNN_EW_BINARY_LOOPS
