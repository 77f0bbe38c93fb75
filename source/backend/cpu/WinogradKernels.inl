// Winograd input / output transforms over a panel of tiles, written once with GCC/Clang vector
// extensions and compiled once per ISA tier: the including file defines MNN_WG_VEC_BYTES (16 / 32 /
// 64) and includes this inside its own anonymous namespace, after <string.h>, <stdint.h> and
// CPUCoreFunctions.hpp. Every value is a vector over the panel's tiles (lane j = tile j, nr lanes,
// nr a multiple of the vector width), so the transforms are plain vector multiply-adds; zero
// entries of the (generated) matrices are skipped.

typedef float WgVec __attribute__((vector_size(MNN_WG_VEC_BYTES)));
constexpr int kWgLanes = MNN_WG_VEC_BYTES / 4;
constexpr int kWgMaxAlpha = 8;

static inline WgVec wgLoad(const float* p) {
    WgVec v;
    memcpy(&v, p, sizeof(v));
    return v;
}
static inline void wgStore(float* p, WgVec v) {
    memcpy(p, &v, sizeof(v));
}
static inline WgVec wgSplat(float s) {
    WgVec v = {};
    return v + s;
}

// d: alpha * alpha rows of nr floats (row r * alpha + s: input position (r, s) of every tile);
// v + xi * xiStride (xi = a * alpha + b): nr floats of (B^T d B)[a][b]. ALPHA > 0: the loops are
// unrolled for that size (alpha == ALPHA); 0: any alpha <= kWgMaxAlpha.
template <int ALPHA>
static void wgInputT(const float* d, const float* bt, int alphaIn, int nr, float* v, int64_t xiStride) {
    const int alpha = ALPHA > 0 ? ALPHA : alphaIn;
    for (int j0 = 0; j0 < nr; j0 += kWgLanes) {
        WgVec t[kWgMaxAlpha * kWgMaxAlpha];
        // t[a][s] = sum_r bt[a][r] d[r][s]
        for (int a = 0; a < alpha; ++a) {
            for (int s = 0; s < alpha; ++s) {
                WgVec acc = {};
                for (int r = 0; r < alpha; ++r) {
                    const float c = bt[a * alpha + r];
                    if (c != 0.0f) {
                        acc += wgSplat(c) * wgLoad(d + (int64_t)(r * alpha + s) * nr + j0);
                    }
                }
                t[a * alpha + s] = acc;
            }
        }
        // v[a][b] = sum_s t[a][s] bt[b][s]
        for (int a = 0; a < alpha; ++a) {
            for (int b = 0; b < alpha; ++b) {
                WgVec acc = {};
                for (int s = 0; s < alpha; ++s) {
                    const float c = bt[b * alpha + s];
                    if (c != 0.0f) {
                        acc += wgSplat(c) * t[a * alpha + s];
                    }
                }
                wgStore(v + (a * alpha + b) * xiStride + j0, acc);
            }
        }
    }
}

// o + xi * xiStride: nr floats of the GEMM result for xi; y: m * m rows of nr floats
// y[a][b] = bias + (A^T o A)[a][b], then the fused activation
template <int ALPHA, int M>
static void wgOutputT(const float* o, int64_t xiStride, const float* at, int alphaIn, int mIn, int nr, float bias,
                      float* y, const MNN::GemmPost* post) {
    const int alpha = ALPHA > 0 ? ALPHA : alphaIn;
    const int m = M > 0 ? M : mIn;
    for (int j0 = 0; j0 < nr; j0 += kWgLanes) {
        WgVec t[kWgMaxAlpha * kWgMaxAlpha];
        // t[u][b] = sum_v o[u][v] at[b][v]
        for (int u = 0; u < alpha; ++u) {
            for (int b = 0; b < m; ++b) {
                WgVec acc = {};
                for (int v = 0; v < alpha; ++v) {
                    const float c = at[b * alpha + v];
                    if (c != 0.0f) {
                        acc += wgSplat(c) * wgLoad(o + (u * alpha + v) * xiStride + j0);
                    }
                }
                t[u * m + b] = acc;
            }
        }
        const WgVec zero = {};
        const WgVec lo = wgSplat(post ? post->lo : 0.0f), hi = wgSplat(post ? post->hi : 0.0f);
        const int act = post ? post->act : 0;
        for (int a = 0; a < m; ++a) {
            for (int b = 0; b < m; ++b) {
                WgVec acc = wgSplat(bias);
                for (int u = 0; u < alpha; ++u) {
                    const float c = at[a * alpha + u];
                    if (c != 0.0f) {
                        acc += wgSplat(c) * t[u * m + b];
                    }
                }
                if (act == 1) {
                    acc = acc > zero ? acc : zero;
                } else if (act == 2) {
                    acc = acc < lo ? lo : acc;
                    acc = acc > hi ? hi : acc;
                }
                wgStore(y + (int64_t)(a * m + b) * nr + j0, acc);
            }
        }
    }
    if (post && post->act == 3) {
        post->unary(post->unaryOp, y, y, (int64_t)m * m * nr, post->lo, post->hi);
    }
}

static void wgInput(const float* d, const float* bt, int alpha, int nr, float* v, int64_t xiStride) {
    switch (alpha) {
        case 4:
            return wgInputT<4>(d, bt, alpha, nr, v, xiStride);
        case 6:
            return wgInputT<6>(d, bt, alpha, nr, v, xiStride);
        case 8:
            return wgInputT<8>(d, bt, alpha, nr, v, xiStride);
        default:
            return wgInputT<0>(d, bt, alpha, nr, v, xiStride);
    }
}

static void wgOutput(const float* o, int64_t xiStride, const float* at, int alpha, int m, int nr, float bias, float* y,
                     const MNN::GemmPost* post) {
    if (alpha == 4 && m == 2) {
        return wgOutputT<4, 2>(o, xiStride, at, alpha, m, nr, bias, y, post);
    }
    if (alpha == 6 && m == 4) {
        return wgOutputT<6, 4>(o, xiStride, at, alpha, m, nr, bias, y, post);
    }
    if (alpha == 8 && m == 6) {
        return wgOutputT<8, 6>(o, xiStride, at, alpha, m, nr, bias, y, post);
    }
    return wgOutputT<0, 0>(o, xiStride, at, alpha, m, nr, bias, y, post);
}
