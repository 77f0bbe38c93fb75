// Depthwise convolution and pooling rows on the packed layout NC16HW16, written once with GCC/Clang
// vector extensions and compiled once per ISA tier: the including file defines MNN_PK_VEC_BYTES
// (16 / 32 / 64) and includes this inside its own anonymous namespace (internal linkage: no ODR
// hazard across tiers), after <string.h>, <stdint.h>, <float.h> and CPUCoreFunctions.hpp.
//
// A position of a block is one group of 16 floats (lane l = channel l of the block), held in
// kPkNV native vectors. The output positions whose window lies inside the input row ([in0, in1))
// are computed kPkP at a time (kPkP * kPkNV = 8 independent accumulators hide the multiply-add
// latency); the others clip their tap range to the input, so no padded copy is ever made.

typedef float PkVec __attribute__((vector_size(MNN_PK_VEC_BYTES)));
typedef int32_t PkIVec __attribute__((vector_size(MNN_PK_VEC_BYTES)));
constexpr int kPkL = MNN_PK_VEC_BYTES / 4;  // floats per vector
constexpr int kPkNV = 16 / kPkL;            // vectors per position
constexpr int kPkP = 8 / kPkNV;             // interior positions per step
// interior positions per step of pkDwInteriorS (3 / 5 taps a row): Q accumulators, the weights
// and an input within the ISA's vector registers (16 below AVX-512, 32 there); 3 taps at 12 rather
// than 8 positions: 28- and 56-wide rows another -8..15% on Zen 3
constexpr int kPkQ3 = kPkNV == 1 ? 16 : 12;
constexpr int kPkQ5 = kPkNV == 1 ? 16 : 8;

static inline PkVec pkLoad(const float* p) {
    PkVec v;
    memcpy(&v, p, sizeof(v));
    return v;
}
static inline void pkStore(float* p, PkVec v) {
    memcpy(p, &v, sizeof(v));
}
static inline PkVec pkSplat(float s) {
    PkVec v = {};
    return v + s;
}
/**
 * max that propagates NaN, in three operations: (v > m ? v : m) is m where either is NaN and
 * (m > v ? m : v) is v there (each one max instruction); their bitwise OR is NaN where either is
 * and the maximum elsewhere (the two agree, up to the sign of a zero)
 */
static inline PkVec pkMaxNan(PkVec m, PkVec v) {
    const PkVec a = v > m ? v : m;
    const PkVec b = m > v ? m : v;
    return (PkVec)((PkIVec)a | (PkIVec)b);
}

/** taps [*k0, *k1) of a window starting at i0 (step d, k taps) that lie in [0, n) */
static inline void pkClip(int i0, int d, int k, int n, int* k0, int* k1) {
    *k0 = i0 < 0 ? (-i0 + d - 1) / d : 0;
    *k1 = n - 1 - i0 < 0 ? 0 : ((n - 1 - i0) / d + 1 < k ? (n - 1 - i0) / d + 1 : k);
    if (*k1 < *k0) {
        *k1 = *k0;
    }
}

/** HardSwish, the unary kernel's formula: x * clamp((x + 3) / 6, 0, 1) */
static inline PkVec pkHardSwish(PkVec x) {
    const PkVec zero = {}, one = pkSplat(1.0f);
    PkVec v = (x + pkSplat(3.0f)) * pkSplat(1.0f / 6.0f);
    v = v < zero ? zero : v;
    v = v > one ? one : v;
    return x * v;
}

/** act 1: ReLU, 2: clip to [lo, hi], 5: HardSwish (in registers), else none */
static inline PkVec pkActivate(int act, PkVec r, PkVec lo, PkVec hi) {
    const PkVec zero = {};
    if (act == 1) {
        r = r > zero ? r : zero;
    } else if (act == 2) {
        r = r < lo ? lo : r;
        r = r > hi ? hi : r;
    } else if (act == 5) {
        r = pkHardSwish(r);
    }
    return r;
}

/** act: GemmPost::act, or 5 for its act 3 with HardSwish applied here (pkDwRow's stride-1 steps) */
struct PkDwStore {
    int act;
    PkVec lo, hi;
    inline void operator()(float* y, const PkVec* a) const {
        for (int v = 0; v < kPkNV; ++v) {
            pkStore(y + v * kPkL, pkActivate(act, a[v], lo, hi));
        }
    }
};

// Q interior positions starting at ox: every tap of every window is inside the row
template <int Q>
static inline void pkDwInterior(const MNN::PackedDwRow* r, int ox, const PkVec* bias, const PkDwStore& st) {
    PkVec acc[Q][kPkNV];
    for (int q = 0; q < Q; ++q) {
        for (int v = 0; v < kPkNV; ++v) {
            acc[q][v] = bias[v];
        }
    }
    const int64_t step = (int64_t)r->sw * 16, tapStep = (int64_t)r->dw * 16;
    const float* xr = r->x + ((int64_t)ox * r->sw - r->pl) * 16;
    const float* wr = r->w;
    for (int ry = 0; ry < r->rows; ++ry, xr += r->xRowStep, wr += r->kw * 16) {
        const float* xp = xr;
        for (int kx = 0; kx < r->kw; ++kx, xp += tapStep) {
            PkVec wv[kPkNV];
            for (int v = 0; v < kPkNV; ++v) {
                wv[v] = pkLoad(wr + kx * 16 + v * kPkL);
            }
            for (int q = 0; q < Q; ++q) {
                for (int v = 0; v < kPkNV; ++v) {
                    acc[q][v] += wv[v] * pkLoad(xp + q * step + v * kPkL);
                }
            }
        }
    }
    for (int q = 0; q < Q; ++q) {
        st(r->y + (int64_t)(ox + q) * 16, acc[q]);
    }
}

// Q interior positions at stride 1, no dilation, KW taps per kernel row: neighbouring windows
// share inputs, so each kernel row loads its Q + KW - 1 inputs once and multiplies each into every
// window that holds it (pkDwInterior loads Q * KW: two loads per multiply-add, bound by the load
// ports). One native vector of the 16 lanes at a time over all rows: Q accumulators (Q independent
// multiply-add chains), KW weights and one input live. (Stride 2 the same way, 2Q + 1 loads
// instead of 3Q, was no faster on Zen 3 and 14% slower on 112-wide 3x3 rows: left to pkDwInterior.)
template <int Q, int KW>
static inline void pkDwInteriorS(const MNN::PackedDwRow* r, int ox, const PkVec* bias, const PkDwStore& st) {
    for (int v = 0; v < kPkNV; ++v) {
        PkVec acc[Q];
#pragma GCC unroll 16
        for (int q = 0; q < Q; ++q) {
            acc[q] = bias[v];
        }
        const float* xr = r->x + ((int64_t)ox - r->pl) * 16 + v * kPkL;
        const float* wr = r->w + v * kPkL;
        for (int ry = 0; ry < r->rows; ++ry, xr += r->xRowStep, wr += KW * 16) {
            PkVec wv[KW];
#pragma GCC unroll 8
            for (int kx = 0; kx < KW; ++kx) {
                wv[kx] = pkLoad(wr + kx * 16);
            }
            // fully unrolled (constant accumulator indices: a loop would keep acc in memory)
#pragma GCC unroll 64
            for (int i = 0; i < Q + KW - 1; ++i) {
                const PkVec xv = pkLoad(xr + i * 16);
#pragma GCC unroll 8
                for (int kx = 0; kx < KW; ++kx) {
                    if (i - kx >= 0 && i - kx < Q) {
                        acc[i - kx] += wv[kx] * xv;
                    }
                }
            }
        }
        float* y = r->y + (int64_t)ox * 16 + v * kPkL;
#pragma GCC unroll 16
        for (int q = 0; q < Q; ++q) {
            pkStore(y + q * 16, pkActivate(st.act, acc[q], st.lo, st.hi));
        }
    }
}

/** pkDwInteriorS over [*ox, in1) in steps of Q, then Q / 2 and 4 positions (a 26-wide interior: 12 + 12) */
template <int Q, int KW>
static inline void pkDwInteriorsS(const MNN::PackedDwRow* r, int* ox, int in1, const PkVec* bias,
                                  const PkDwStore& st) {
    for (; *ox + Q <= in1; *ox += Q) {
        pkDwInteriorS<Q, KW>(r, *ox, bias, st);
    }
    if (Q / 2 >= 4 && *ox + Q / 2 <= in1) {
        pkDwInteriorS<(Q / 2 >= 4 ? Q / 2 : 4), KW>(r, *ox, bias, st);
        *ox += Q / 2;
    }
    if (Q / 2 > 4 && *ox + 4 <= in1) {
        pkDwInteriorS<4, KW>(r, *ox, bias, st);
        *ox += 4;
    }
}

// one position whose window crosses the row's border: its taps clipped to the input
static inline void pkDwEdge(const MNN::PackedDwRow* r, int ox, const PkVec* bias, const PkDwStore& st) {
    PkVec acc[kPkNV];
    for (int v = 0; v < kPkNV; ++v) {
        acc[v] = bias[v];
    }
    const int ix0 = ox * r->sw - r->pl;
    int k0, k1;
    pkClip(ix0, r->dw, r->kw, r->iw, &k0, &k1);
    const float* xr = r->x;
    const float* wr = r->w;
    for (int ry = 0; ry < r->rows; ++ry, xr += r->xRowStep, wr += r->kw * 16) {
        for (int kx = k0; kx < k1; ++kx) {
            const float* xp = xr + (int64_t)(ix0 + kx * r->dw) * 16;
            for (int v = 0; v < kPkNV; ++v) {
                acc[v] += pkLoad(wr + kx * 16 + v * kPkL) * pkLoad(xp + v * kPkL);
            }
        }
    }
    st(r->y + (int64_t)ox * 16, acc);
}

static void pkDwRow(const MNN::PackedDwRow* r) {
    PkVec bias[kPkNV];
    for (int v = 0; v < kPkNV; ++v) {
        bias[v] = pkLoad(r->bias + v * kPkL);
    }
    PkDwStore st;
    st.act = r->post ? r->post->act : 0;
    st.lo = pkSplat(r->post ? r->post->lo : 0.0f);
    st.hi = pkSplat(r->post ? r->post->hi : 0.0f);
    // the stride-1 steps apply HardSwish in their stores (the row's unary pass then skips them):
    // 3- and 5-tap rows of 14-112 positions -5..25% in a harness on Zen 3; single positions leave
    // it to the pass. SiLU there (ewSilu8's method in vector extensions) was slower than the pass
    // (+15..33%: 12 accumulators and the function's temporaries outgrow the 16 registers)
    PkDwStore stS = st;
    if (st.act == 3 && r->post->unaryOp == (int)MNN::VecUnaryOp::HARD_SWISH) {
        stS.act = 5;
    }
    const int in0 = r->rows > 0 ? r->in0 : r->ow, in1 = r->rows > 0 ? r->in1 : r->ow;
    int ox = 0;
    for (; ox < in0; ++ox) {
        pkDwEdge(r, ox, bias, st);
    }
    const int s0 = ox;
    if (r->dw == 1 && r->sw == 1 && r->kw == 3) {
        pkDwInteriorsS<kPkQ3, 3>(r, &ox, in1, bias, stS);
    } else if (r->dw == 1 && r->sw == 1 && r->kw == 5) {
        pkDwInteriorsS<kPkQ5, 5>(r, &ox, in1, bias, stS);
    }
    const int s1 = stS.act != st.act ? ox : s0;  // [s0, s1): activated in the stores
    for (; ox + kPkP <= in1; ox += kPkP) {
        pkDwInterior<kPkP>(r, ox, bias, st);
    }
    // the rest in halves: one position alone is a chain of dependent multiply-adds (at a 14-wide
    // row of AVX-512, 4 positions were a third of the row's time)
    if (kPkP > 4) {
        for (; ox + 4 <= in1; ox += 4) {
            pkDwInterior<4>(r, ox, bias, st);
        }
    }
    if (kPkP > 2) {
        for (; ox + 2 <= in1; ox += 2) {
            pkDwInterior<2>(r, ox, bias, st);
        }
    }
    for (; ox < in1; ++ox) {
        pkDwInterior<1>(r, ox, bias, st);
    }
    for (; ox < r->ow; ++ox) {
        pkDwEdge(r, ox, bias, st);
    }
    if (st.act == 3) {
        // the positions [a, b) not activated in the stores: one pass, or two around [s0, s1)
        auto pass = [&](int a, int b) {
            if (b > a) {
                float* y = r->y + (int64_t)a * 16;
                r->post->unary(r->post->unaryOp, y, y, (int64_t)(b - a) * 16, r->post->lo, r->post->hi);
            }
        };
        if (s1 == s0) {
            pass(0, r->ow);
        } else {
            pass(0, s0);
            pass(s1, r->ow);
        }
    }
}

// pooling: max (NaN propagates, an empty window gives the lowest float) or sum * scaleY * invX[ox]
template <int IS_MAX>
static inline PkVec pkPoolStep(PkVec a, PkVec v) {
    return IS_MAX ? pkMaxNan(a, v) : a + v;
}

template <int IS_MAX>
static inline void pkPoolStore(const MNN::PackedPoolRow* r, int ox, const PkVec* a, bool empty) {
    float* y = r->y + (int64_t)ox * 16;
    for (int v = 0; v < kPkNV; ++v) {
        PkVec o = a[v];
        if (IS_MAX) {
            o = empty ? pkSplat(-FLT_MAX) : o;
        } else {
            o = o * (r->scaleY * r->invX[ox]);
        }
        pkStore(y + v * kPkL, o);
    }
}

template <int IS_MAX, int Q>
static inline void pkPoolInterior(const MNN::PackedPoolRow* r, int ox) {
    const PkVec init = pkSplat(IS_MAX ? -__builtin_inff() : 0.0f);
    PkVec acc[Q][kPkNV];
    for (int q = 0; q < Q; ++q) {
        for (int v = 0; v < kPkNV; ++v) {
            acc[q][v] = init;
        }
    }
    const int64_t step = (int64_t)r->sw * 16, tapStep = (int64_t)r->dw * 16;
    const float* xr = r->x + ((int64_t)ox * r->sw - r->pl) * 16;
    for (int ry = 0; ry < r->rows; ++ry, xr += r->xRowStep) {
        const float* xp = xr;
        for (int kx = 0; kx < r->kw; ++kx, xp += tapStep) {
            for (int q = 0; q < Q; ++q) {
                for (int v = 0; v < kPkNV; ++v) {
                    acc[q][v] = pkPoolStep<IS_MAX>(acc[q][v], pkLoad(xp + q * step + v * kPkL));
                }
            }
        }
    }
    for (int q = 0; q < Q; ++q) {
        pkPoolStore<IS_MAX>(r, ox + q, acc[q], false);
    }
}

template <int IS_MAX>
static inline void pkPoolEdge(const MNN::PackedPoolRow* r, int ox) {
    PkVec acc[kPkNV];
    for (int v = 0; v < kPkNV; ++v) {
        acc[v] = pkSplat(IS_MAX ? -__builtin_inff() : 0.0f);
    }
    const int ix0 = ox * r->sw - r->pl;
    int k0, k1;
    pkClip(ix0, r->dw, r->kw, r->iw, &k0, &k1);
    const float* xr = r->x;
    for (int ry = 0; ry < r->rows; ++ry, xr += r->xRowStep) {
        for (int kx = k0; kx < k1; ++kx) {
            const float* xp = xr + (int64_t)(ix0 + kx * r->dw) * 16;
            for (int v = 0; v < kPkNV; ++v) {
                acc[v] = pkPoolStep<IS_MAX>(acc[v], pkLoad(xp + v * kPkL));
            }
        }
    }
    pkPoolStore<IS_MAX>(r, ox, acc, r->rows <= 0 || k1 <= k0);
}

/** the window's rows of input column xp combined (r->rows >= 1 rows, r->xRowStep apart) */
template <int IS_MAX>
static inline void pkPoolColumn(const MNN::PackedPoolRow* r, const float* xp, PkVec (&a)[kPkNV]) {
    for (int v = 0; v < kPkNV; ++v) {
        a[v] = pkLoad(xp + v * kPkL);
    }
    for (int ry = 1; ry < r->rows; ++ry) {
        xp += r->xRowStep;
        for (int v = 0; v < kPkNV; ++v) {
            a[v] = pkPoolStep<IS_MAX>(a[v], pkLoad(xp + v * kPkL));
        }
    }
}

/**
 * Interior outputs of a 3-wide window (dilation 1) at stride SW = 1 or 2, separably: each input
 * column's rows are combined once and kept in registers for the outputs that share it (stride 2:
 * an output's left column is its predecessor's right one; stride 1: two of its three columns are),
 * so an output costs 2 (stride 2) or 1 (stride 1) column combines and 2 window steps instead of
 * 3 * rows window steps
 */
template <int IS_MAX, int SW>
static void pkPoolInterior3(const MNN::PackedPoolRow* r, int ox0, int ox1) {
    const float* x = r->x + ((int64_t)ox0 * SW - r->pl) * 16;
    PkVec c0[kPkNV], c1[kPkNV], c2[kPkNV];
    pkPoolColumn<IS_MAX>(r, x, c0);
    if (SW == 1) {
        pkPoolColumn<IS_MAX>(r, x + 16, c1);
    }
    for (int ox = ox0; ox < ox1; ++ox, x += SW * 16) {
        if (SW == 2) {
            pkPoolColumn<IS_MAX>(r, x + 16, c1);
        }
        pkPoolColumn<IS_MAX>(r, x + 32, c2);
        PkVec acc[kPkNV];
        for (int v = 0; v < kPkNV; ++v) {
            acc[v] = pkPoolStep<IS_MAX>(pkPoolStep<IS_MAX>(c0[v], c1[v]), c2[v]);
        }
        pkPoolStore<IS_MAX>(r, ox, acc, false);
        for (int v = 0; v < kPkNV; ++v) {
            if (SW == 1) {
                c0[v] = c1[v];
                c1[v] = c2[v];
            } else {
                c0[v] = c2[v];
            }
        }
    }
}

template <int IS_MAX>
static void pkPoolRowT(const MNN::PackedPoolRow* r) {
    const int in0 = r->rows > 0 ? r->in0 : r->ow, in1 = r->rows > 0 ? r->in1 : r->ow;
    int ox = 0;
    for (; ox < in0; ++ox) {
        pkPoolEdge<IS_MAX>(r, ox);
    }
    if (r->kw == 3 && r->dw == 1 && (r->sw == 1 || r->sw == 2) && in1 > ox) {
        if (r->sw == 1) {
            pkPoolInterior3<IS_MAX, 1>(r, ox, in1);
        } else {
            pkPoolInterior3<IS_MAX, 2>(r, ox, in1);
        }
        ox = in1;
    }
    for (; ox + kPkP <= in1; ox += kPkP) {
        pkPoolInterior<IS_MAX, kPkP>(r, ox);
    }
    for (; ox < in1; ++ox) {
        pkPoolInterior<IS_MAX, 1>(r, ox);
    }
    for (; ox < r->ow; ++ox) {
        pkPoolEdge<IS_MAX>(r, ox);
    }
}

static void pkPoolRow(const MNN::PackedPoolRow* r) {
    if (r->isMax) {
        pkPoolRowT<1>(r);
    } else {
        pkPoolRowT<0>(r);
    }
}

/**
 * acc[l] += the sum over positions p < n of x[p * 16 + l]: four positions' partial sums at a time
 * (independent chains), added in a fixed order, so a given n and x always give the same bits
 */
static void pkSumPositions(const float* x, int64_t n, float* acc) {
    PkVec a[4][kPkNV] = {};
    int64_t p = 0;
    for (; p + 4 <= n; p += 4) {
        for (int j = 0; j < 4; ++j) {
            for (int v = 0; v < kPkNV; ++v) {
                a[j][v] += pkLoad(x + (p + j) * 16 + v * kPkL);
            }
        }
    }
    for (; p < n; ++p) {
        for (int v = 0; v < kPkNV; ++v) {
            a[0][v] += pkLoad(x + p * 16 + v * kPkL);
        }
    }
    for (int v = 0; v < kPkNV; ++v) {
        pkStore(acc + v * kPkL, pkLoad(acc + v * kPkL) + ((a[0][v] + a[1][v]) + (a[2][v] + a[3][v])));
    }
}
