// Float32 2-D resize rows, written once and compiled once per ISA tier: the including file defines
// MNN_RESIZE_VEC_BYTES and includes this inside its own anonymous namespace (internal linkage),
// after <stdint.h>, <string.h>, CPUCoreFunctions.hpp (and <immintrin.h> for AVX2 / AVX-512).
// The horizontal pass is a gather: explicit gather instructions on AVX2 / AVX-512 (the compilers
// do not emit them for generic tuning), plain loops below; the vertical blend runs in vectors.

typedef float RzVec __attribute__((vector_size(MNN_RESIZE_VEC_BYTES)));
constexpr int kRzLanes = MNN_RESIZE_VEC_BYTES / 4;

static inline RzVec rzLoad(const float* p) {
    RzVec v;
    memcpy(&v, p, sizeof(v));
    return v;
}
static inline void rzStore(float* p, RzVec v) {
    memcpy(p, &v, sizeof(v));
}

/** dst[i] = src[i0[i]] * w0[i] + src[i1[i]] * w1[i] (w0 == nullptr: dst[i] = src[i0[i]]) */
static void rzRowH(const float* src, const int32_t* i0, const int32_t* i1, const float* w0, const float* w1,
                   float* dst, int n) {
    int i = 0;
#if defined(__AVX512F__)
    // explicit gathers (the compilers do not emit them for generic tuning); the including file
    // includes <immintrin.h> before its anonymous namespace
    if (!w0) {
        for (; i + 16 <= n; i += 16) {
            _mm512_storeu_ps(dst + i, _mm512_i32gather_ps(_mm512_loadu_si512(i0 + i), src, 4));
        }
    } else {
        for (; i + 16 <= n; i += 16) {
            const __m512 a = _mm512_i32gather_ps(_mm512_loadu_si512(i0 + i), src, 4);
            const __m512 b = _mm512_i32gather_ps(_mm512_loadu_si512(i1 + i), src, 4);
            _mm512_storeu_ps(dst + i, _mm512_fmadd_ps(a, _mm512_loadu_ps(w0 + i),
                                                      _mm512_mul_ps(b, _mm512_loadu_ps(w1 + i))));
        }
    }
#elif defined(__AVX2__)
    if (!w0) {
        for (; i + 8 <= n; i += 8) {
            const __m256i a = _mm256_loadu_si256((const __m256i*)(i0 + i));
            _mm256_storeu_ps(dst + i, _mm256_i32gather_ps(src, a, 4));
        }
    } else {
        for (; i + 8 <= n; i += 8) {
            const __m256 a = _mm256_i32gather_ps(src, _mm256_loadu_si256((const __m256i*)(i0 + i)), 4);
            const __m256 b = _mm256_i32gather_ps(src, _mm256_loadu_si256((const __m256i*)(i1 + i)), 4);
            _mm256_storeu_ps(dst + i,
                             _mm256_fmadd_ps(a, _mm256_loadu_ps(w0 + i), _mm256_mul_ps(b, _mm256_loadu_ps(w1 + i))));
        }
    }
#endif
    if (!w0) {
        for (; i < n; ++i) {
            dst[i] = src[i0[i]];
        }
        return;
    }
    for (; i < n; ++i) {
        dst[i] = src[i0[i]] * w0[i] + src[i1[i]] * w1[i];
    }
}

/** dst[i] = r0[i] * w0 + r1[i] * w1 */
static void rzBlendV(const float* r0, const float* r1, float w0, float w1, float* dst, int n) {
    constexpr int L = kRzLanes;
    RzVec a = {}, b = {};
    a += w0;
    b += w1;
    int i = 0;
    for (; i + 2 * L <= n; i += 2 * L) {
        rzStore(dst + i, rzLoad(r0 + i) * a + rzLoad(r1 + i) * b);
        rzStore(dst + i + L, rzLoad(r0 + i + L) * a + rzLoad(r1 + i + L) * b);
    }
    for (; i + L <= n; i += L) {
        rzStore(dst + i, rzLoad(r0 + i) * a + rzLoad(r1 + i) * b);
    }
    for (; i < n; ++i) {
        dst[i] = r0[i] * w0 + r1[i] * w1;
    }
}
