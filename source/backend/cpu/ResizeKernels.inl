// Float32 2-D resize rows, written once and compiled once per ISA tier: the including file defines
// MNN_RESIZE_VEC_BYTES and includes this inside its own anonymous namespace (internal linkage),
// after <stdint.h>, <string.h> and CPUCoreFunctions.hpp. The horizontal pass is a gather the
// compiler vectorises where the ISA has one; the vertical blend runs in explicit vectors.

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
    if (!w0) {
        for (int i = 0; i < n; ++i) {
            dst[i] = src[i0[i]];
        }
        return;
    }
    for (int i = 0; i < n; ++i) {
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
