// Winograd input / output transforms on the packed layout NC16HW16, written once with GCC/Clang
// vector extensions and compiled once per ISA tier: the including file defines MNN_PWG_VEC_BYTES
// (16 / 32 / 64) and includes this inside its own anonymous namespace, after <string.h>,
// <stdint.h>, CPUCoreFunctions.hpp and WinogradConstTables.hpp. A "value" of the transforms is one
// position's 16 channels, handled as 16 / kPwLanes native vectors; zero entries of the (generated)
// matrices are skipped. F(2,3), F(4,3), F(6,3), F(2,5), F(4,5), F(4,4) and the 1-D F(2,7), F(4,7), F(6,7),
// F(6,5) take their matrices as compile-time constants (their zero / +1 / -1 entries fold away;
// the generic path tested each coefficient per tile, and the transforms of a 32 -> 64-channel
// layer took twice the time of its products).

typedef float PwVec __attribute__((vector_size(MNN_PWG_VEC_BYTES)));
constexpr int kPwLanes = MNN_PWG_VEC_BYTES / 4;
constexpr int kPwMaxAlpha = 8;
constexpr int kPw1MaxAlpha = MNN::wino::kMaxAlpha;  // 1-D windows: F(4,7), F(6,7), F(6,5)

static inline PwVec pwLoad(const float* p) {
    PwVec v;
    memcpy(&v, p, sizeof(v));
    return v;
}
static inline void pwStore(float* p, PwVec v) {
    memcpy(p, &v, sizeof(v));
}
static inline PwVec pwSplat(float s) {
    PwVec v = {};
    return v + s;
}

/**
 * sum_k c[k] x[k] over N terms with compile-time coefficients (after unrolling, c[k] are constants):
 * zero terms vanish, +1 / -1 terms are adds / subtracts, the first term starts the sum
 */
template <int N>
static inline __attribute__((always_inline)) PwVec pwDot(const float* c, const PwVec* x, int xStride) {
    PwVec acc = {};
    bool any = false;
#pragma GCC unroll 12
    for (int k = 0; k < N; ++k) {
        const float ck = c[k];
        const PwVec xk = x[k * xStride];
        if (ck == 1.0f) {
            acc = any ? acc + xk : xk;
        } else if (ck == -1.0f) {
            acc = any ? acc - xk : -xk;
        } else if (ck != 0.0f) {
            acc = any ? acc + ck * xk : ck * xk;
        }
        any = any || ck != 0.0f;
    }
    return acc;
}

// x[j * xStride], x[(j + 1) * xStride] -> their sum and difference for A^T's paired columns j, j + 1
template <int N>
static inline __attribute__((always_inline)) void pwPairColumns(const MNN::wino::Paired& p, PwVec* x, int xStride) {
#pragma GCC unroll 12
    for (int j = 0; j < N; ++j) {
        if (p.pairA[j] == 1) {
            const PwVec a = x[j * xStride], b = x[(j + 1) * xStride];
            x[j * xStride] = a + b;
            x[(j + 1) * xStride] = a - b;
        }
    }
}

// pwInputTile for alpha = ALPHA with the compile-time B^T of WinogradConstTables.hpp: TT::value
// (ConstTables<ALPHA>: F(ALPHA - 2, 3); Stride2Tables<M>: the stride-2 3x3 window, ALPHA = 2M + 1)
template <int ALPHA, class TT = MNN::wino::ConstTables<ALPHA>>
static inline void pwInputTileC(const float* src, int64_t rowStride, float* v, int64_t eStride) {
    constexpr const MNN::wino::Tables& T = TT::value;
    // B^T's paired rows (points p, -p) as E + O and E - O (WinogradConstTables.hpp: Paired)
    constexpr const MNN::wino::Paired& PP = MNN::wino::PairedTables<TT, ALPHA, 1>::value;
    // the lane loop stays a loop (unrolled, 16-byte tiers compiled 4 bodies: 24 s per file)
    for (int l0 = 0; l0 < 16; l0 += kPwLanes) {
        PwVec t[ALPHA * ALPHA];  // t[a][s] = sum_r bt[a][r] d[r][s]
#pragma GCC unroll 8
        for (int s = 0; s < ALPHA; ++s) {
            PwVec d[ALPHA];
#pragma GCC unroll 8
            for (int r = 0; r < ALPHA; ++r) {
                d[r] = pwLoad(src + r * rowStride + s * 16 + l0);
            }
#pragma GCC unroll 8
            for (int a = 0; a < ALPHA; ++a) {
                if (PP.pairB[a] == 1) {
                    const PwVec e = pwDot<ALPHA>(PP.btEven + a * ALPHA, d, 1);
                    const PwVec o = pwDot<ALPHA>(PP.btOdd + a * ALPHA, d, 1);
                    t[a * ALPHA + s] = e + o;
                    t[(a + 1) * ALPHA + s] = e - o;
                } else if (PP.pairB[a] == 0) {
                    t[a * ALPHA + s] = pwDot<ALPHA>(T.bt + a * ALPHA, d, 1);
                }
            }
        }
        // v[a][b] = sum_s t[a][s] bt[b][s]
#pragma GCC unroll 8
        for (int a = 0; a < ALPHA; ++a) {
#pragma GCC unroll 8
            for (int b = 0; b < ALPHA; ++b) {
                if (PP.pairB[b] == 1) {
                    const PwVec e = pwDot<ALPHA>(PP.btEven + b * ALPHA, t + a * ALPHA, 1);
                    const PwVec o = pwDot<ALPHA>(PP.btOdd + b * ALPHA, t + a * ALPHA, 1);
                    pwStore(v + (a * ALPHA + b) * eStride + l0, e + o);
                    pwStore(v + (a * ALPHA + b + 1) * eStride + l0, e - o);
                } else if (PP.pairB[b] == 0) {
                    pwStore(v + (a * ALPHA + b) * eStride + l0, pwDot<ALPHA>(T.bt + b * ALPHA, t + a * ALPHA, 1));
                }
            }
        }
    }
}

// v + e * eStride (e = a * alpha + b) = (B^T d B)[a][b] over 16 lanes, d[r][s] = src[r * rowStride + s * 16];
// S2: an odd ALPHA of the stride-2 3x3 window (2m + 1), else F(m, ALPHA + 1 - m)'s (5: F(3,3), 7: F(4,4))
template <int ALPHA, bool S2 = (ALPHA % 2 == 1)>
static inline void pwInputTile(const float* src, int64_t rowStride, const float* bt, int alphaIn, float* v,
                               int64_t eStride) {
    if constexpr (ALPHA == 4 || ALPHA == 6 || ALPHA == 8 || (ALPHA == 5 && !S2) || (ALPHA == 7 && !S2)) {
        // bt is the generated B^T of alpha ALPHA (any r), equal to the compile-time one (tested)
        pwInputTileC<ALPHA>(src, rowStride, v, eStride);
        return;
    }
    if constexpr (ALPHA == 5 || ALPHA == 7) {
        // the stride-2 3x3 window (2m + 1); bt is its generated B^T (tested)
        pwInputTileC<ALPHA, MNN::wino::Stride2Tables<(ALPHA - 1) / 2>>(src, rowStride, v, eStride);
        return;
    }
    const int alpha = ALPHA > 0 ? ALPHA : alphaIn;
    for (int l0 = 0; l0 < 16; l0 += kPwLanes) {
        PwVec t[kPwMaxAlpha * kPwMaxAlpha];
        // t[a][s] = sum_r bt[a][r] d[r][s]
        for (int a = 0; a < alpha; ++a) {
            for (int s = 0; s < alpha; ++s) {
                PwVec acc = {};
                for (int r = 0; r < alpha; ++r) {
                    const float c = bt[a * alpha + r];
                    if (c != 0.0f) {
                        acc += pwSplat(c) * pwLoad(src + r * rowStride + s * 16 + l0);
                    }
                }
                t[a * alpha + s] = acc;
            }
        }
        // v[a][b] = sum_s t[a][s] bt[b][s]
        for (int a = 0; a < alpha; ++a) {
            for (int b = 0; b < alpha; ++b) {
                PwVec acc = {};
                for (int s = 0; s < alpha; ++s) {
                    const float c = bt[b * alpha + s];
                    if (c != 0.0f) {
                        acc += pwSplat(c) * t[a * alpha + s];
                    }
                }
                pwStore(v + (a * alpha + b) * eStride + l0, acc);
            }
        }
    }
}

// nx tiles of one tile row: tile j's window starts at input (iy0, ix0 + j * m) of the block plane x
// (ih x iw positions of 16 floats; zero outside); its values go to v + j * 16 + e * eStride
template <int ALPHA, bool S2 = (ALPHA % 2 == 1)>
static void pwInputT(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, const float* bt, int alphaIn,
                     float* v, int64_t eStride) {
    const int alpha = ALPHA > 0 ? ALPHA : alphaIn;
    const int64_t rowStride = (int64_t)iw * 16;
    const bool rowsInside = iy0 >= 0 && iy0 + alpha <= ih;
    float win[kPwMaxAlpha * kPwMaxAlpha * 16];
    for (int j = 0; j < nx; ++j) {
        const int tx = ix0 + j * m;
        if (rowsInside && tx >= 0 && tx + alpha <= iw) {
            pwInputTile<ALPHA, S2>(x + iy0 * rowStride + (int64_t)tx * 16, rowStride, bt, alpha, v + j * 16, eStride);
            continue;
        }
        // edge tile: copy the window with zeros outside the plane
        for (int r = 0; r < alpha; ++r) {
            const int iy = iy0 + r;
            for (int s = 0; s < alpha; ++s) {
                const int ix = tx + s;
                float* w = win + (r * alpha + s) * 16;
                if ((unsigned)iy < (unsigned)ih && (unsigned)ix < (unsigned)iw) {
                    memcpy(w, x + iy * rowStride + (int64_t)ix * 16, sizeof(float) * 16);
                } else {
                    memset(w, 0, sizeof(float) * 16);
                }
            }
        }
        pwInputTile<ALPHA, S2>(win, (int64_t)alpha * 16, bt, alpha, v + j * 16, eStride);
    }
}

// pwOutputT with the compile-time A^T of WinogradConstTables.hpp: TT::value (ConstTables<ALPHA, M>:
// F(M, ALPHA + 1 - M); Stride2Tables<M>: the stride-2 3x3 window, ALPHA = 2M + 1)
template <int ALPHA, int M, class TT = MNN::wino::ConstTables<ALPHA, M>>
static void pwOutputC(const float* o, int64_t eStride, int nx, const float* bias, float* y, int64_t yRowStride,
                      int rows, int cols, const MNN::GemmPost* post) {
    // A^T's paired columns (points p, -p) read as sums and differences formed once (Paired)
    constexpr const MNN::wino::Paired& PP = MNN::wino::PairedTables<TT, ALPHA, M>::value;
    const int act = post ? post->act : 0;
    const PwVec zero = {};
    const PwVec lo = pwSplat(post ? post->lo : 0.0f), hi = pwSplat(post ? post->hi : 0.0f);
    const int hy = rows < M ? rows : M;
    for (int j = 0; j < nx; ++j) {
        const float* oj = o + j * 16;
        const int hx = cols - j * M < M ? cols - j * M : M;
        float* yj = y + (int64_t)j * M * 16;
        for (int l0 = 0; l0 < 16; l0 += kPwLanes) {
            PwVec t[ALPHA * M];  // t[u][b] = sum_w o[u][w] at[b][w]
#pragma GCC unroll 8
            for (int u = 0; u < ALPHA; ++u) {
                PwVec ou[ALPHA];
#pragma GCC unroll 8
                for (int w = 0; w < ALPHA; ++w) {
                    ou[w] = pwLoad(oj + (u * ALPHA + w) * eStride + l0);
                }
                pwPairColumns<ALPHA>(PP, ou, 1);
#pragma GCC unroll 8
                for (int b = 0; b < M; ++b) {
                    t[u * M + b] = pwDot<ALPHA>(PP.atPaired + b * ALPHA, ou, 1);
                }
            }
            const PwVec bv = pwLoad(bias + l0);
            PwVec r[M * M];  // r[a][b] = bias + sum_u at[a][u] t[u][b]
#pragma GCC unroll 8
            for (int b = 0; b < M; ++b) {
                pwPairColumns<ALPHA>(PP, t + b, M);
            }
#pragma GCC unroll 8
            for (int a = 0; a < M; ++a) {
#pragma GCC unroll 8
                for (int b = 0; b < M; ++b) {
                    PwVec acc = bv + pwDot<ALPHA>(PP.atPaired + a * ALPHA, t + b, M);
                    if (act == 1) {
                        acc = acc > zero ? acc : zero;
                    } else if (act == 2) {
                        acc = acc < lo ? lo : acc;
                        acc = acc > hi ? hi : acc;
                    }
                    r[a * M + b] = acc;
                }
            }
            if (hy == M && hx == M) {
#pragma GCC unroll 8
                for (int a = 0; a < M; ++a) {
#pragma GCC unroll 8
                    for (int b = 0; b < M; ++b) {
                        pwStore(yj + a * yRowStride + b * 16 + l0, r[a * M + b]);
                    }
                }
            } else {
                for (int a = 0; a < hy; ++a) {
                    for (int b = 0; b < hx; ++b) {
                        pwStore(yj + a * yRowStride + b * 16 + l0, r[a * M + b]);
                    }
                }
            }
        }
    }
    if (act == 3) {
        for (int a = 0; a < hy; ++a) {
            post->unary(post->unaryOp, y + a * yRowStride, y + a * yRowStride, (int64_t)cols * 16, post->lo, post->hi);
        }
    }
}

// nx tiles of one tile row and one output block: tile j's GEMM results (alpha^2 values of 16 lanes)
// at o + j * 16 + e * eStride; y[a][j * m + b] = bias + (A^T o A)[a][b], then post, for a < rows
// and j * m + b < cols (y: row stride yRowStride, positions of 16 floats)
template <int ALPHA, int M>
static void pwOutputT(const float* o, int64_t eStride, const float* at, int alphaIn, int mIn, int nx,
                      const float* bias, float* y, int64_t yRowStride, int rows, int cols, const MNN::GemmPost* post) {
    const int alpha = ALPHA > 0 ? ALPHA : alphaIn;
    const int m = M > 0 ? M : mIn;
    const int act = post ? post->act : 0;
    const PwVec zero = {};
    const PwVec lo = pwSplat(post ? post->lo : 0.0f), hi = pwSplat(post ? post->hi : 0.0f);
    for (int j = 0; j < nx; ++j) {
        const float* oj = o + j * 16;
        const int hx = cols - j * m < m ? cols - j * m : m;
        const int hy = rows < m ? rows : m;
        float* yj = y + (int64_t)j * m * 16;
        for (int l0 = 0; l0 < 16; l0 += kPwLanes) {
            PwVec t[kPwMaxAlpha * kPwMaxAlpha];
            // t[u][b] = sum_v o[u][v] at[b][v]
            for (int u = 0; u < alpha; ++u) {
                for (int b = 0; b < m; ++b) {
                    PwVec acc = {};
                    for (int w = 0; w < alpha; ++w) {
                        const float c = at[b * alpha + w];
                        if (c != 0.0f) {
                            acc += pwSplat(c) * pwLoad(oj + (u * alpha + w) * eStride + l0);
                        }
                    }
                    t[u * m + b] = acc;
                }
            }
            const PwVec bv = pwLoad(bias + l0);
            for (int a = 0; a < hy; ++a) {
                for (int b = 0; b < hx; ++b) {
                    PwVec acc = bv;
                    for (int u = 0; u < alpha; ++u) {
                        const float c = at[a * alpha + u];
                        if (c != 0.0f) {
                            acc += pwSplat(c) * t[u * m + b];
                        }
                    }
                    if (act == 1) {
                        acc = acc > zero ? acc : zero;
                    } else if (act == 2) {
                        acc = acc < lo ? lo : acc;
                        acc = acc > hi ? hi : acc;
                    }
                    pwStore(yj + a * yRowStride + b * 16 + l0, acc);
                }
            }
        }
    }
    if (act == 3) {
        const int hy = rows < m ? rows : m;
        for (int a = 0; a < hy; ++a) {
            post->unary(post->unaryOp, y + a * yRowStride, y + a * yRowStride, (int64_t)cols * 16, post->lo, post->hi);
        }
    }
}

static void pwInput(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, const float* bt, int alpha,
                    float* v, int64_t eStride) {
    switch (alpha) {
        case 4:
            return pwInputT<4>(x, ih, iw, iy0, ix0, m, nx, bt, alpha, v, eStride);
        case 5:
            // F(3,3) steps 3 columns per tile, the stride-2 3x3 window's m = 2 steps 4
            if (m == 3) {
                return pwInputT<5, false>(x, ih, iw, iy0, ix0, m, nx, bt, alpha, v, eStride);
            }
            return pwInputT<5>(x, ih, iw, iy0, ix0, m, nx, bt, alpha, v, eStride);
        case 7:
            // F(4,4) steps 4 columns per tile, F(5,3) 5, the stride-2 3x3 window's m = 3 steps 6
            if (m == 4 || m == 5) {
                return pwInputT<7, false>(x, ih, iw, iy0, ix0, m, nx, bt, alpha, v, eStride);
            }
            return pwInputT<7>(x, ih, iw, iy0, ix0, m, nx, bt, alpha, v, eStride);
        case 6:
            return pwInputT<6>(x, ih, iw, iy0, ix0, m, nx, bt, alpha, v, eStride);
        case 8:
            return pwInputT<8>(x, ih, iw, iy0, ix0, m, nx, bt, alpha, v, eStride);
        default:
            return pwInputT<0>(x, ih, iw, iy0, ix0, m, nx, bt, alpha, v, eStride);
    }
}

static void pwOutput(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx, const float* bias,
                     float* y, int64_t yRowStride, int rows, int cols, const MNN::GemmPost* post) {
    // the packed kernels' pairs run on compile-time A^T, equal to the generated at (tested)
    if (alpha == 4 && m == 2) {
        return pwOutputC<4, 2>(o, eStride, nx, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 5 && m == 3) {  // F(3,3)
        return pwOutputC<5, 3>(o, eStride, nx, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 6 && m == 4) {
        return pwOutputC<6, 4>(o, eStride, nx, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 8 && m == 6) {
        return pwOutputC<8, 6>(o, eStride, nx, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 6 && m == 2) {  // F(2,5)
        return pwOutputC<6, 2>(o, eStride, nx, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 8 && m == 4) {  // F(4,5)
        return pwOutputC<8, 4>(o, eStride, nx, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 5 && m == 2) {  // the stride-2 3x3 window, m = 2
        return pwOutputC<5, 2, MNN::wino::Stride2Tables<2>>(o, eStride, nx, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 7 && m == 4) {  // F(4,4): the stride-2 7x7 stem on its space-to-depth input
        return pwOutputC<7, 4>(o, eStride, nx, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 7 && m == 5) {  // F(5,3)
        return pwOutputC<7, 5>(o, eStride, nx, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 7 && m == 3) {  // the stride-2 3x3 window, m = 3
        return pwOutputC<7, 3, MNN::wino::Stride2Tables<3>>(o, eStride, nx, bias, y, yRowStride, rows, cols, post);
    }
    return pwOutputT<0, 0>(o, eStride, at, alpha, m, nx, bias, y, yRowStride, rows, cols, post);
}

// ---- 1-D F(m, r) along a row (windows 1 x alpha) or a column (alpha x 1) ----

// v + e * eStride = (B^T d)[e] over 16 lanes, d[k] = src[k * step]; ALPHA > 0: compile-time B^T
template <int ALPHA>
static inline void pw1InputTile(const float* src, int64_t step, const float* bt, int alphaIn, float* v,
                                int64_t eStride) {
    if constexpr (ALPHA > 0) {
        constexpr const MNN::wino::Tables& T = MNN::wino::ConstTables<ALPHA>::value;
        constexpr const MNN::wino::Paired& PP = MNN::wino::PairedTables<MNN::wino::ConstTables<ALPHA>, ALPHA, 1>::value;
        for (int l0 = 0; l0 < 16; l0 += kPwLanes) {
            PwVec d[ALPHA];
#pragma GCC unroll 12
            for (int k = 0; k < ALPHA; ++k) {
                d[k] = pwLoad(src + k * step + l0);
            }
#pragma GCC unroll 12
            for (int e = 0; e < ALPHA; ++e) {
                if (PP.pairB[e] == 1) {
                    const PwVec ev = pwDot<ALPHA>(PP.btEven + e * ALPHA, d, 1);
                    const PwVec od = pwDot<ALPHA>(PP.btOdd + e * ALPHA, d, 1);
                    pwStore(v + e * eStride + l0, ev + od);
                    pwStore(v + (e + 1) * eStride + l0, ev - od);
                } else if (PP.pairB[e] == 0) {
                    pwStore(v + e * eStride + l0, pwDot<ALPHA>(T.bt + e * ALPHA, d, 1));
                }
            }
        }
    } else {
        for (int l0 = 0; l0 < 16; l0 += kPwLanes) {
            for (int e = 0; e < alphaIn; ++e) {
                PwVec acc = {};
                for (int k = 0; k < alphaIn; ++k) {
                    const float c = bt[e * alphaIn + k];
                    if (c != 0.0f) {
                        acc += pwSplat(c) * pwLoad(src + k * step + l0);
                    }
                }
                pwStore(v + e * eStride + l0, acc);
            }
        }
    }
}

// nx tiles; tile j's window: alpha positions from input (iy0, ix0 + j * m) along the row
// (vertical 0) or from (iy0, ix0 + j) down the column (vertical 1), zero outside the ih x iw
// plane; its values go to v + j * 16 + e * eStride
template <int ALPHA>
static void pw1InputT(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, int vertical, const float* bt,
                      int alphaIn, float* v, int64_t eStride) {
    const int alpha = ALPHA > 0 ? ALPHA : alphaIn;
    const int64_t rowStride = (int64_t)iw * 16;
    const int64_t step = vertical ? rowStride : 16;
    const int tileStep = vertical ? 1 : m;
    const int dy = vertical ? 1 : 0, dx = vertical ? 0 : 1;
    float win[kPw1MaxAlpha * 16];
    for (int j = 0; j < nx; ++j) {
        const int tx = ix0 + j * tileStep;
        const int yEnd = iy0 + (vertical ? alpha : 1), xEnd = tx + (vertical ? 1 : alpha);
        if (iy0 >= 0 && yEnd <= ih && tx >= 0 && xEnd <= iw) {
            pw1InputTile<ALPHA>(x + iy0 * rowStride + (int64_t)tx * 16, step, bt, alpha, v + j * 16, eStride);
            continue;
        }
        for (int k = 0; k < alpha; ++k) {
            const int iy = iy0 + k * dy, ix = tx + k * dx;
            float* w = win + k * 16;
            if ((unsigned)iy < (unsigned)ih && (unsigned)ix < (unsigned)iw) {
                memcpy(w, x + iy * rowStride + (int64_t)ix * 16, sizeof(float) * 16);
            } else {
                memset(w, 0, sizeof(float) * 16);
            }
        }
        pw1InputTile<ALPHA>(win, 16, bt, alpha, v + j * 16, eStride);
    }
}

// nx tiles of one output block: tile j's GEMM results (alpha values of 16 lanes) at o + j * 16 +
// e * eStride; output i < m of tile j = bias + (A^T o)[i], then post: along the row (vertical 0) at
// y + (j * m + i) * 16 while j * m + i < cols, or down the column (vertical 1) at
// y + i * yRowStride + j * 16 while i < rows
template <int ALPHA, int M>
static void pw1OutputT(const float* o, int64_t eStride, const float* atIn, int alphaIn, int mIn, int nx, int vertical,
                       const float* bias, float* y, int64_t yRowStride, int rows, int cols, const MNN::GemmPost* post) {
    const int alpha = ALPHA > 0 ? ALPHA : alphaIn;
    const int m = M > 0 ? M : mIn;
    const int act = post ? post->act : 0;
    const PwVec zero = {};
    const PwVec lo = pwSplat(post ? post->lo : 0.0f), hi = pwSplat(post ? post->hi : 0.0f);
    for (int j = 0; j < nx; ++j) {
        const float* oj = o + j * 16;
        const int count = vertical ? (rows < m ? rows : m) : (cols - j * m < m ? cols - j * m : m);
        for (int l0 = 0; l0 < 16; l0 += kPwLanes) {
            const PwVec bv = pwLoad(bias + l0);
            PwVec r[kPw1MaxAlpha];
            if constexpr (ALPHA > 0) {
                constexpr const MNN::wino::Paired& PP =
                    MNN::wino::PairedTables<MNN::wino::ConstTables<ALPHA, M>, ALPHA, M>::value;
                PwVec ou[ALPHA];
#pragma GCC unroll 12
                for (int k = 0; k < ALPHA; ++k) {
                    ou[k] = pwLoad(oj + k * eStride + l0);
                }
                pwPairColumns<ALPHA>(PP, ou, 1);
#pragma GCC unroll 12
                for (int i = 0; i < M; ++i) {
                    r[i] = bv + pwDot<ALPHA>(PP.atPaired + i * ALPHA, ou, 1);
                }
            } else {
                for (int i = 0; i < m; ++i) {
                    PwVec acc = bv;
                    for (int k = 0; k < alpha; ++k) {
                        const float c = atIn[i * alpha + k];
                        if (c != 0.0f) {
                            acc += pwSplat(c) * pwLoad(oj + k * eStride + l0);
                        }
                    }
                    r[i] = acc;
                }
            }
            for (int i = 0; i < count; ++i) {
                PwVec acc = r[i];
                if (act == 1) {
                    acc = acc > zero ? acc : zero;
                } else if (act == 2) {
                    acc = acc < lo ? lo : acc;
                    acc = acc > hi ? hi : acc;
                }
                pwStore((vertical ? y + i * yRowStride + j * 16 : y + (int64_t)(j * m + i) * 16) + l0, acc);
            }
        }
    }
    if (act == 3) {
        if (vertical) {
            const int hy = rows < m ? rows : m;
            for (int i = 0; i < hy; ++i) {
                post->unary(post->unaryOp, y + i * yRowStride, y + i * yRowStride, (int64_t)nx * 16, post->lo, post->hi);
            }
        } else {
            post->unary(post->unaryOp, y, y, (int64_t)cols * 16, post->lo, post->hi);
        }
    }
}

static void pw1Input(const float* x, int ih, int iw, int iy0, int ix0, int m, int nx, int vertical, const float* bt,
                     int alpha, float* v, int64_t eStride) {
    switch (alpha) {
        case 4:
            return pw1InputT<4>(x, ih, iw, iy0, ix0, m, nx, vertical, bt, alpha, v, eStride);
        case 6:
            return pw1InputT<6>(x, ih, iw, iy0, ix0, m, nx, vertical, bt, alpha, v, eStride);
        case 8:
            return pw1InputT<8>(x, ih, iw, iy0, ix0, m, nx, vertical, bt, alpha, v, eStride);
        case 10:
            return pw1InputT<10>(x, ih, iw, iy0, ix0, m, nx, vertical, bt, alpha, v, eStride);
        case 12:
            return pw1InputT<12>(x, ih, iw, iy0, ix0, m, nx, vertical, bt, alpha, v, eStride);
        default:
            return pw1InputT<0>(x, ih, iw, iy0, ix0, m, nx, vertical, bt, alpha, v, eStride);
    }
}

static void pw1Output(const float* o, int64_t eStride, const float* at, int alpha, int m, int nx, int vertical,
                      const float* bias, float* y, int64_t yRowStride, int rows, int cols, const MNN::GemmPost* post) {
    // compile-time A^T for the pairs of 3-, 5- and 7-tap windows (equal to the generated at: tested)
    if (alpha == 10 && m == 4) {  // F(4,7)
        return pw1OutputT<10, 4>(o, eStride, at, alpha, m, nx, vertical, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 12 && m == 6) {  // F(6,7)
        return pw1OutputT<12, 6>(o, eStride, at, alpha, m, nx, vertical, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 10 && m == 6) {  // F(6,5)
        return pw1OutputT<10, 6>(o, eStride, at, alpha, m, nx, vertical, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 4 && m == 2) {
        return pw1OutputT<4, 2>(o, eStride, at, alpha, m, nx, vertical, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 6 && m == 4) {
        return pw1OutputT<6, 4>(o, eStride, at, alpha, m, nx, vertical, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 8 && m == 6) {
        return pw1OutputT<8, 6>(o, eStride, at, alpha, m, nx, vertical, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 6 && m == 2) {
        return pw1OutputT<6, 2>(o, eStride, at, alpha, m, nx, vertical, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 8 && m == 4) {
        return pw1OutputT<8, 4>(o, eStride, at, alpha, m, nx, vertical, bias, y, yRowStride, rows, cols, post);
    }
    if (alpha == 8 && m == 2) {  // F(2,7)
        return pw1OutputT<8, 2>(o, eStride, at, alpha, m, nx, vertical, bias, y, yRowStride, rows, cols, post);
    }
    return pw1OutputT<0, 0>(o, eStride, at, alpha, m, nx, vertical, bias, y, yRowStride, rows, cols, post);
}
