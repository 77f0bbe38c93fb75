// Depthwise convolution rows, written once with GCC/Clang vector extensions and compiled once per
// ISA tier: the including file defines MNN_DW_VEC_BYTES (16 / 32 / 64) and includes this inside its
// own anonymous namespace (internal linkage: no ODR hazard across tiers), after <string.h>,
// <stdint.h> and CPUCoreFunctions.hpp.
//
// The source is a zero-padded copy of one input plane in which every tap of every output row is a
// contiguous run: tapOff[t] is the offset of tap t's first element relative to the row base
// (oy * rowStep), so output x reads src[rowBase + tapOff[t] + ox]. (Stride-2 planes are stored as
// even / odd column halves by the caller, which keeps the runs contiguous.) Rows carry at least one
// vector of slack, so the last, partial vector of a row may read past the valid columns.

typedef float DwVec __attribute__((vector_size(MNN_DW_VEC_BYTES)));
typedef int32_t DwIVec __attribute__((vector_size(MNN_DW_VEC_BYTES)));
constexpr int kDwLanes = MNN_DW_VEC_BYTES / 4;

static inline DwVec dwLoad(const float* p) {
    DwVec v;
    memcpy(&v, p, sizeof(v));
    return v;
}
static inline void dwStore(float* p, DwVec v) {
    memcpy(p, &v, sizeof(v));
}
static inline DwVec dwSplat(float s) {
    DwVec v = {};
    return v + s;
}

// NV vectors of one output row: out[v * L + i] = bias + sum_t w[t] * s[tapOff[t] + v * L + i]
template <int NV>
static inline void dwChunk(const float* s, const int32_t* tapOff, const float* w, int taps, float bias, float* out) {
    constexpr int L = kDwLanes;
    DwVec a[NV];
    for (int v = 0; v < NV; ++v) {
        a[v] = dwSplat(bias);
    }
    for (int t = 0; t < taps; ++t) {
        const float* p = s + tapOff[t];
        const DwVec wv = dwSplat(w[t]);
        for (int v = 0; v < NV; ++v) {
            a[v] += wv * dwLoad(p + v * L);
        }
    }
    for (int v = 0; v < NV; ++v) {
        dwStore(out + v * L, a[v]);
    }
}

static void dwRows(const float* src, int64_t rowStep, const int32_t* tapOff, const float* w, int taps, float bias,
                   float* y, int oh, int ow, const MNN::GemmPost* post) {
    constexpr int L = kDwLanes;
    for (int oy = 0; oy < oh; ++oy) {
        const float* s = src + (int64_t)oy * rowStep;
        float* yr = y + (int64_t)oy * ow;
        for (int ox = 0; ox < ow; ox += 4 * L) {
            // up to four vectors at once: independent accumulators hide the multiply-add latency
            const int nv = ow - ox >= 4 * L ? 4 : (ow - ox + L - 1) / L;
            // whole vectors past the row's end write the start of the next rows, which are computed
            // (and overwritten) next; they must not pass the plane's end
            const bool direct = (int64_t)oy * ow + ox + nv * L <= (int64_t)oh * ow;
            float tmp[4 * L];
            float* out = direct ? yr + ox : tmp;
            switch (nv) {
                case 4:
                    dwChunk<4>(s + ox, tapOff, w, taps, bias, out);
                    break;
                case 3:
                    dwChunk<3>(s + ox, tapOff, w, taps, bias, out);
                    break;
                case 2:
                    dwChunk<2>(s + ox, tapOff, w, taps, bias, out);
                    break;
                default:
                    dwChunk<1>(s + ox, tapOff, w, taps, bias, out);
                    break;
            }
            if (!direct) {
                for (int i = 0; i < ow - ox; ++i) {
                    yr[ox + i] = tmp[i];
                }
            }
        }
        if (post && post->act == 1) {
            for (int i = 0; i < ow; ++i) {
                yr[i] = yr[i] < 0.0f ? 0.0f : yr[i];
            }
        } else if (post && post->act == 2) {
            const float lo = post->lo, hi = post->hi;
            for (int i = 0; i < ow; ++i) {
                float v = yr[i] < lo ? lo : yr[i];
                yr[i] = v > hi ? hi : v;
            }
        }
    }
    if (post && post->act == 3) {
        // once over the whole (contiguous) plane: rows of a small plane would run the vector
        // kernel's scalar tail only
        post->unary(post->unaryOp, y, y, (int64_t)oh * ow, post->lo, post->hi);
    }
}

/**
 * Depthwise over a block of up to L channels vectorised across the channels: the block's planes are
 * interleaved into a zero-padded [rowsP][colsP][L] scratch (every tap of every output is then one
 * vector load), the outputs gathered in [oh * ow][L] and written back to the channels' planes. For
 * small planes, where a row is shorter than a few vectors and per-row work would dominate.
 * wv: taps x L weights (lane l = channel l of the block), bv: L biases; scratch: see
 * dwChannelScratchFloats.
 */
static void dwChannels(const float* x, int64_t inPlane, int nch, const MNN::DwChannelGeom* g, const float* wv,
                       const float* bv, float* y, int64_t outPlane, const MNN::GemmPost* post, float* scratch) {
    constexpr int L = kDwLanes;
    const int rowsP = (g->oh - 1) * g->sh + (g->kh - 1) * g->dh + 1;
    const int colsP = (g->ow - 1) * g->sw + (g->kw - 1) * g->dw + 1;
    float* P = scratch;
    float* T = scratch + (int64_t)rowsP * colsP * L;
    memset(P, 0, sizeof(float) * (size_t)((int64_t)rowsP * colsP * L));
    const int ix0 = g->pl < 0 ? -g->pl : 0;
    const int ix1 = g->iw < colsP - g->pl ? g->iw : colsP - g->pl;
    for (int l = 0; l < nch; ++l) {
        const float* xp = x + (int64_t)l * inPlane;
        for (int iy = 0; iy < g->ih; ++iy) {
            const int r = iy + g->pt;
            if (r < 0 || r >= rowsP) {
                continue;
            }
            const float* xr = xp + (int64_t)iy * g->iw;
            float* pr = P + ((int64_t)r * colsP + g->pl) * L + l;
            for (int ix = ix0; ix < ix1; ++ix) {
                pr[(int64_t)ix * L] = xr[ix];
            }
        }
    }
    int32_t off[MNN::kDwChannelMaxTaps];
    const int taps = g->kh * g->kw;
    for (int ky = 0; ky < g->kh; ++ky) {
        for (int kx = 0; kx < g->kw; ++kx) {
            off[ky * g->kw + kx] = (ky * g->dh * colsP + kx * g->dw) * L;
        }
    }
    const int act = post ? post->act : 0;
    const DwVec zero = {}, lo = dwSplat(post ? post->lo : 0.0f), hi = dwSplat(post ? post->hi : 0.0f);
    const DwVec bias = dwLoad(bv);
    for (int oy = 0; oy < g->oh; ++oy) {
        const float* row = P + (int64_t)oy * g->sh * colsP * L;
        float* t = T + (int64_t)oy * g->ow * L;
        for (int ox0 = 0; ox0 < g->ow; ox0 += 4) {
            // four output pixels at once: independent accumulators hide the multiply-add latency
            const int np = g->ow - ox0 < 4 ? g->ow - ox0 : 4;
            DwVec acc[4] = {bias, bias, bias, bias};
            const int64_t step = (int64_t)g->sw * L;
            const float* base = row + ox0 * step;
            for (int k = 0; k < taps; ++k) {
                const DwVec wk = dwLoad(wv + k * L);
                const float* p = base + off[k];
                acc[0] += wk * dwLoad(p);
                if (np == 4) {
                    acc[1] += wk * dwLoad(p + step);
                    acc[2] += wk * dwLoad(p + 2 * step);
                    acc[3] += wk * dwLoad(p + 3 * step);
                } else {
                    for (int q = 1; q < np; ++q) {
                        acc[q] += wk * dwLoad(p + q * step);
                    }
                }
            }
            for (int q = 0; q < np; ++q) {
                DwVec a = acc[q];
                if (act == 1) {
                    a = a > zero ? a : zero;
                } else if (act == 2) {
                    a = a < lo ? lo : a;
                    a = a > hi ? hi : a;
                }
                dwStore(t + (int64_t)(ox0 + q) * L, a);
            }
        }
    }
    const int64_t n = (int64_t)g->oh * g->ow;
    for (int l = 0; l < nch; ++l) {
        float* yp = y + (int64_t)l * outPlane;
        for (int64_t p = 0; p < n; ++p) {
            yp[p] = T[p * L + l];
        }
        if (act == 3) {
            post->unary(post->unaryOp, yp, yp, n, post->lo, post->hi);
        }
    }
}

/** sum of n floats: 4 vector accumulators (n / (4 L) terms each), combined in double at the end */
static double dwPlaneSum(const float* x, int64_t n) {
    constexpr int L = kDwLanes;
    DwVec a0 = {}, a1 = {}, a2 = {}, a3 = {};
    int64_t i = 0;
    for (; i + 4 * L <= n; i += 4 * L) {
        a0 += dwLoad(x + i);
        a1 += dwLoad(x + i + L);
        a2 += dwLoad(x + i + 2 * L);
        a3 += dwLoad(x + i + 3 * L);
    }
    for (; i + L <= n; i += L) {
        a0 += dwLoad(x + i);
    }
    double s = 0.0;
    for (int j = 0; j < L; ++j) {
        s += (double)a0[j] + (double)a1[j] + (double)a2[j] + (double)a3[j];
    }
    for (; i < n; ++i) {
        s += (double)x[i];
    }
    return s;
}

/** max that propagates NaN (the first NaN met sticks): m = (v > m || v is NaN) ? v : m */
static inline DwVec dwMaxNan(DwVec m, DwVec v) {
    const DwIVec take = (v > m) | (v != v);
    return (DwVec)(((DwIVec)v & take) | ((DwIVec)m & ~take));
}

/**
 * Pooling rows over the same padded layout as dwRows: max (NaN-propagating; the caller pads with
 * -inf) or average (the caller pads with 0; sum * invY[oy] * invX[ox]).
 */
static void dwPoolRows(const float* src, int64_t rowStep, const int32_t* tapOff, int taps, int isMax,
                       const float* invY, const float* invX, float* y, int oh, int ow) {
    constexpr int L = kDwLanes;
    for (int oy = 0; oy < oh; ++oy) {
        const float* s = src + (int64_t)oy * rowStep;
        float* yr = y + (int64_t)oy * ow;
        for (int ox = 0; ox < ow; ox += L) {
            DwVec a = dwLoad(s + tapOff[0] + ox);
            if (isMax) {
                for (int t = 1; t < taps; ++t) {
                    a = dwMaxNan(a, dwLoad(s + tapOff[t] + ox));
                }
            } else {
                for (int t = 1; t < taps; ++t) {
                    a += dwLoad(s + tapOff[t] + ox);
                }
            }
            if (ox + L <= ow) {
                dwStore(yr + ox, a);
            } else {
                float tmp[L];
                dwStore(tmp, a);
                memcpy(yr + ox, tmp, sizeof(float) * (size_t)(ow - ox));
            }
        }
        if (!isMax) {
            const float iy = invY[oy];
            for (int ox = 0; ox < ow; ++ox) {
                yr[ox] = yr[ox] * (iy * invX[ox]);
            }
        }
    }
}
