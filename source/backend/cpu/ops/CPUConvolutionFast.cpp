// Fast 2-D Convolution: per (batch, group) the input is packed into the GEMM's B panels (a copy for
// 1x1 stride 1, im2col otherwise) and multiplied by the weights packed once at onResize; bias and
// the fused activation happen in the GEMM's store. Depthwise (one input channel per group) uses a
// direct kernel. fp32 accumulation; the reference kernel (CPUConvolution.cpp) is the oracle.
#include "CPUConvolutionFast.hpp"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <memory>
#include "backend/cpu/CPUBackend.hpp"
#include "backend/cpu/CPUGemm.hpp"
#include "CPUConvolutionWinograd.hpp"
#include "PaddedPlane.hpp"

namespace MNN {

namespace {

enum class FastKind { GEMM_1X1, IM2COL, DEPTHWISE, WINOGRAD, GEMV_1X1, DEPTHWISE_CHANNELS };

// MNN_CONV_ALGO: reference | gemm (im2col / 1x1 GEMM only) | winograd (the cheapest tile size) |
// winograd2 | winograd4 | winograd6 (that output tile size where Winograd applies)
int forcedWinogradUnit(bool* forceGemm) {
    const char* env = getenv("MNN_CONV_ALGO");
    *forceGemm = env && strcmp(env, "gemm") == 0;
    if (!env || strncmp(env, "winograd", 8) != 0) {
        return 0;
    }
    return env[8] ? atoi(env + 8) : -1;
}

// cost (micro-kernel multiply-add lanes) of im2col / 1x1 + packed GEMM per thread; packing an
// element costs ~2 units as a row copy (1x1) and ~6 through im2col's runs
double gemmConvCost(const CPUCoreFunctions& f, int m, int n, int k, int batch, int threads, bool is1x1) {
    const double gemm = (double)((m + f.mr - 1) / f.mr * f.mr) * ((n + f.nr - 1) / f.nr * f.nr) * k;
    const double pack = (double)k * n * (is1x1 ? 2.0 : 6.0);
    return batch * (gemm + pack) / std::max(1, threads);
}

template <int NR>
void copyRows(const float* x, int64_t plane, int rows, float* dst) {
    for (int ci = 0; ci < rows; ++ci) {
        memcpy(dst + (int64_t)ci * NR, x + ci * plane, sizeof(float) * NR);
    }
}

// Packs columns [p*nr, p*nr + nr) of the im2col matrix (rows k = (ci, ky, kx), columns n = (oy, ox))
// of one group's input planes into panel p.
struct Im2ColJob {
    const float* x;  // first input plane of the group
    float* packed;
    const int* iy0;  // per output column: oy * sh - ph
    const int* ix0;  // per output column: ox * sw - pw
    int cg, kh, kw, ih, iw, dh, dw, n, nr;
    int ow, sw;  // output width, horizontal stride
    bool direct1x1;
    void operator()(int p) const {
        const int64_t k = (int64_t)cg * kh * kw;
        float* dst = packed + (int64_t)p * nr * k;
        const int c0 = p * nr;
        const int cols = std::min(nr, n - c0);
        const int64_t plane = (int64_t)ih * iw;
        if (direct1x1) {
            if (cols == nr) {
                // whole panels: fixed-size copies the compiler inlines (a libc call per row of nr
                // floats costs more than the copy)
                switch (nr) {
                    case 8:
                        return copyRows<8>(x + c0, plane, cg, dst);
                    case 24:
                        return copyRows<24>(x + c0, plane, cg, dst);
                    case 32:
                        return copyRows<32>(x + c0, plane, cg, dst);
                    default:
                        break;
                }
            }
            for (int ci = 0; ci < cg; ++ci) {
                float* d = dst + (int64_t)ci * nr;
                memcpy(d, x + ci * plane + c0, sizeof(float) * cols);
                for (int j = cols; j < nr; ++j) {
                    d[j] = 0.0f;
                }
            }
            return;
        }
        float* d = dst;
        for (int ci = 0; ci < cg; ++ci) {
            const float* xp = x + ci * plane;
            for (int ky = 0; ky < kh; ++ky) {
                for (int kx = 0; kx < kw; ++kx) {
                    const int oyOff = ky * dh, oxOff = kx * dw;
                    // runs of columns on one output row: one input row, ix = start + t * sw
                    for (int j = 0; j < cols;) {
                        const int col = c0 + j;
                        const int run = std::min(cols - j, ow - col % ow);
                        const int iy = iy0[col] + oyOff;
                        float* dd = d + j;
                        j += run;
                        if ((unsigned)iy >= (unsigned)ih) {
                            for (int t = 0; t < run; ++t) {
                                dd[t] = 0.0f;
                            }
                            continue;
                        }
                        const float* xr = xp + (int64_t)iy * iw;
                        const int start = ix0[col] + oxOff;
                        int t0 = start >= 0 ? 0 : (-start + sw - 1) / sw;
                        int t1 = start >= iw ? 0 : (iw - 1 - start) / sw + 1;
                        t0 = std::min(t0, run);
                        t1 = std::max(std::min(t1, run), t0);
                        for (int t = 0; t < t0; ++t) {
                            dd[t] = 0.0f;
                        }
                        if (sw == 1) {
                            memcpy(dd + t0, xr + start + t0, sizeof(float) * (size_t)(t1 - t0));
                        } else {
                            for (int t = t0; t < t1; ++t) {
                                dd[t] = xr[start + t * sw];
                            }
                        }
                        for (int t = t1; t < run; ++t) {
                            dd[t] = 0.0f;
                        }
                    }
                    for (int j = cols; j < nr; ++j) {
                        d[j] = 0.0f;
                    }
                    d += nr;
                }
            }
        }
    }
};

// im2col from zero-padded planes (PaddedPlane layout: every tap of an output row is a contiguous run,
// stride-2 rows split into even / odd halves): panel p's columns are runs along output rows copied
// without bounds checks or per-element index arithmetic.
struct PaddedIm2ColJob {
    const PaddedPlane* plane;
    const float* planes;  // cg padded planes, planeFloats apart
    float* packed;
    int cg, taps, n, ow, nr;
    void operator()(int p) const {
        const int64_t k = (int64_t)cg * taps;
        float* dst = packed + (int64_t)p * nr * k;
        const int c0 = p * nr;
        const int cols = std::min(nr, n - c0);
        const int oy0 = c0 / ow, ox0 = c0 % ow;
        for (int ci = 0; ci < cg; ++ci) {
            const float* P = planes + ci * plane->planeFloats;
            for (int t = 0; t < taps; ++t) {
                float* d = dst + ((int64_t)ci * taps + t) * nr;
                const float* tap = P + plane->tapOff[(size_t)t];
                int oy = oy0, ox = ox0, j = 0;
                while (j < cols) {
                    const int run = std::min(cols - j, ow - ox);
                    const float* src = tap + (int64_t)oy * plane->rowStep + ox;
                    for (int q = 0; q < run; ++q) {
                        d[j + q] = src[q];
                    }
                    j += run;
                    ox = 0;
                    ++oy;
                }
                for (; j < nr; ++j) {
                    d[j] = 0.0f;
                }
            }
        }
    }
};

struct BuildPlanesJob {
    const PaddedPlane* plane;
    const float* x;  // cg input planes
    float* planes;
    int64_t inPlane;
    void operator()(int ci) const {
        plane->build(x + ci * inPlane, planes + ci * plane->planeFloats, 0.0f);
    }
};

// A 1x1 convolution over a single position (squeeze-excite blocks after global pooling):
// y[o] = bias[o] + dot(W[o], x), outputs [c * 64, ...) per task; the packed GEMM would pad the one
// column to a whole register tile.
struct GemvJob {
    const float* x;
    const float* w;  // [M x K] row-major
    const float* bias;
    float* y;
    int m, k;
    const GemmPost* post;
    static constexpr int kChunk = 64;
    void operator()(int c) const {
        const int o0 = c * kChunk, o1 = std::min(m, o0 + kChunk);
        for (int o = o0; o < o1; ++o) {
            const float* wr = w + (int64_t)o * k;
            float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
            int q = 0;
            for (; q + 8 <= k; q += 8) {
                for (int u = 0; u < 8; ++u) {
                    acc[u] += wr[q + u] * x[q + u];
                }
            }
            float v = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
            for (; q < k; ++q) {
                v += wr[q] * x[q];
            }
            v += bias[o];
            if (post->act == 1) {
                v = v > 0.0f ? v : 0.0f;
            } else if (post->act == 2) {
                v = std::min(std::max(v, post->lo), post->hi);
            }
            y[o] = v;
        }
        if (post->act == 3 && o1 > o0) {
            post->unary(post->unaryOp, y + o0, y + o0, o1 - o0, post->lo, post->hi);
        }
    }
};

struct DepthwiseJob {
    const float* x;
    const float* w;
    const float* bias;  // may be null
    float* y;
    int channels;  // input channels (= groups)
    int mg;        // outputs per group
    int ih, iw, oh, ow, kh, kw, sh, sw, ph, pw, dh, dw;
    int oxBegin, oxEnd;  // output columns whose whole window lies inside the input row
    GemmPost post;
    // index = batch * (channels * mg) + output channel
    void operator()(int idx) const {
        const int m = channels * mg;
        const int nb = idx / m, oc = idx % m;
        const int g = oc / mg;
        const float* xp = x + ((int64_t)nb * channels + g) * ih * iw;
        const float* wk = w + (int64_t)oc * kh * kw;
        float* yp = y + ((int64_t)nb * m + oc) * oh * ow;
        const float b = bias ? bias[oc] : 0.0f;
        for (int oy = 0; oy < oh; ++oy) {
            float* yr = yp + (int64_t)oy * ow;
            for (int ox = 0; ox < ow; ++ox) {
                yr[ox] = b;
            }
            for (int ky = 0; ky < kh; ++ky) {
                const int iy = oy * sh - ph + ky * dh;
                if ((unsigned)iy >= (unsigned)ih) {
                    continue;
                }
                const float* xr = xp + (int64_t)iy * iw;
                for (int kx = 0; kx < kw; ++kx) {
                    const float wv = wk[ky * kw + kx];
                    const int off = kx * dw - pw;
                    for (int ox = 0; ox < oxBegin && ox < ow; ++ox) {
                        const int ix = ox * sw + off;
                        if ((unsigned)ix < (unsigned)iw) {
                            yr[ox] += wv * xr[ix];
                        }
                    }
                    if (sw == 1) {
                        const float* xs = xr + off;
                        for (int ox = oxBegin; ox < oxEnd; ++ox) {
                            yr[ox] += wv * xs[ox];
                        }
                    } else {
                        for (int ox = oxBegin; ox < oxEnd; ++ox) {
                            yr[ox] += wv * xr[ox * sw + off];
                        }
                    }
                    for (int ox = std::max(oxEnd, oxBegin); ox < ow; ++ox) {
                        const int ix = ox * sw + off;
                        if ((unsigned)ix < (unsigned)iw) {
                            yr[ox] += wv * xr[ix];
                        }
                    }
                }
            }
            if (post.act == 1) {
                for (int ox = 0; ox < ow; ++ox) {
                    yr[ox] = yr[ox] > 0.0f ? yr[ox] : 0.0f;
                }
            } else if (post.act == 2) {
                for (int ox = 0; ox < ow; ++ox) {
                    yr[ox] = std::min(std::max(yr[ox], post.lo), post.hi);
                }
            }
        }
        if (post.act == 3) {
            post.unary(post.unaryOp, yp, yp, (int64_t)oh * ow, post.lo, post.hi);
        }
    }
};

// Depthwise with the table's vector kernel: per (batch, input channel) the plane is copied once into a
// zero-padded scratch plane (stride 2: even / odd columns in two halves of each row) in which every
// tap is a contiguous run, then each of the group's output channels is one dwconvRows call.
struct DepthwisePackedJob {
    const CPUCoreFunctions* f;
    const PaddedPlane* plane;
    const float* x;
    const float* w;
    const float* bias;
    float* y;
    float* scratch;
    int channels, mg, batch, oh, ow, taps, tasks;
    GemmPost post;
    void operator()(int t) const {
        const int64_t total = (int64_t)batch * channels;
        const int64_t i0 = total * t / tasks, i1 = total * (t + 1) / tasks;
        float* P = scratch + plane->planeFloats * t;
        const int m = channels * mg;
        const int64_t inPlane = (int64_t)plane->ih * plane->iw;
        for (int64_t i = i0; i < i1; ++i) {
            const int nb = (int)(i / channels), g = (int)(i % channels);
            plane->build(x + ((int64_t)nb * channels + g) * inPlane, P, 0.0f);
            for (int k = 0; k < mg; ++k) {
                const int oc = g * mg + k;
                f->dwconvRows(P, plane->rowStep, plane->tapOff.data(), w + (int64_t)oc * taps, taps, bias[oc],
                              y + ((int64_t)nb * m + oc) * oh * ow, oh, ow, post.act ? &post : nullptr);
            }
        }
    }
};

// Depthwise vectorised across channels: items = (batch, block of dwLanes channels), split into
// contiguous ranges, one scratch per range.
struct DepthwiseChannelsJob {
    const CPUCoreFunctions* f;
    const DwChannelGeom* g;
    const float* x;
    const float* wv;  // [block][taps][lanes]
    const float* bv;  // [block][lanes]
    float* y;
    float* scratch;
    int64_t scratchFloats;
    int channels, blocks, batch, taps, tasks;
    const GemmPost* post;
    void operator()(int t) const {
        const int L = f->dwLanes;
        const int64_t items = (int64_t)batch * blocks;
        const int64_t i0 = items * t / tasks, i1 = items * (t + 1) / tasks;
        const int64_t inPlane = (int64_t)g->ih * g->iw, outPlane = (int64_t)g->oh * g->ow;
        for (int64_t i = i0; i < i1; ++i) {
            const int nb = (int)(i / blocks), blk = (int)(i % blocks);
            const int c0 = blk * L, nch = std::min(L, channels - c0);
            const int64_t plane0 = (int64_t)nb * channels + c0;
            f->dwconvChannels(x + plane0 * inPlane, inPlane, nch, g, wv + (int64_t)blk * taps * L,
                              bv + (int64_t)blk * L, y + plane0 * outPlane, outPlane, post->act ? post : nullptr,
                              scratch + scratchFloats * t);
        }
    }
};

// MNN_DW_ALGO=rows | channels forces the depthwise kernel (tests, benchmarks); default: channels
// when an output row fits one vector (per-row work would dominate: dw_bench), else rows
int forcedDepthwiseAlgo() {
    const char* env = getenv("MNN_DW_ALGO");
    if (!env) {
        return 0;
    }
    return strcmp(env, "rows") == 0 ? 1 : strcmp(env, "channels") == 0 ? 2 : 0;
}

}  // namespace

class CPUConvolutionFast : public Execution {
public:
    CPUConvolutionFast(Backend* b, const ConvAttrs& attrs) : Execution(b), mAttrs(attrs) {
        mPost = CPUUtils::gemmPostFor(attrs, b);
        mPool = static_cast<CPUBackend*>(b)->threadPool();
        snprintf(mAlgo, sizeof(mAlgo), "gemm");
    }
    ~CPUConvolutionFast() override = default;

    const char* algorithm() const override {
        return mAlgo;
    }

    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        std::vector<int> bias;
        const bool hasBias = inputs.size() > 2 && inputs[2];
        if (hasBias) {
            bias = TensorUtils::shape(inputs[2]);
        }
        std::string err;
        if (!resolveConv(mAttrs, false, TensorUtils::shape(inputs[0]), TensorUtils::shape(inputs[1]),
                         hasBias ? &bias : nullptr, &mGeom, &mOutChannels, &err)) {
            return error(INVALID_VALUE, "Convolution: %s", err.c_str());
        }
        if (mGeom.input.size() != 2) {
            return error(NOT_SUPPORT, "Convolution: the fast path needs 2-D input, got %d spatial dims",
                         (int)mGeom.input.size());
        }
        mFuncs = &cpuCoreFunctions();
        mPost.unary = mFuncs->unaryF32;
        const int c = inputs[0]->length(1);
        const int group = mAttrs.group;
        mCg = c / group;
        mMg = mOutChannels / group;
        // a zero batch or channel count passes every size limit while the other dims stay huge:
        // the GEMM extents must still fit int (found by mnn_fuzz_model: signed overflow)
        const double k = (double)mCg * mGeom.kernel[0] * mGeom.kernel[1];
        const double n = (double)mGeom.output[0] * mGeom.output[1];
        if (k > 2147483647.0 || n > 2147483647.0) {
            return error(INVALID_VALUE, "Convolution: window of %.0f or output plane of %.0f elements is over 2^31", k,
                         n);
        }
        mK = (int)k;
        mN = (int)n;
        const float* w = inputs[1]->host<float>();
        const float* b = hasBias ? inputs[2]->host<float>() : nullptr;
        if (mCg == 1 && group > 1) {
            mKind = FastKind::DEPTHWISE;
            mPackedDepthwise = false;
            mWeights.assign(w, w + (int64_t)mOutChannels * mK);
            mBias.assign((size_t)mOutChannels, 0.0f);
            if (b) {
                mBias.assign(b, b + mOutChannels);
            }
            // output columns whose window [ox*sw - pw, ox*sw - pw + (kw-1)*dw] lies inside [0, iw)
            const int sw = mGeom.strides[1], pw = mGeom.padBegin[1], span = (mGeom.kernel[1] - 1) * mGeom.dilations[1];
            int begin = 0;
            while (begin < mGeom.output[1] && begin * sw - pw < 0) {
                ++begin;
            }
            int end = begin;
            while (end < mGeom.output[1] && end * sw - pw + span < mGeom.input[1]) {
                ++end;
            }
            mOxBegin = begin;
            mOxEnd = end;
            snprintf(mAlgo, sizeof(mAlgo), "depthwise-direct");
            const int forced = forcedDepthwiseAlgo();
            const bool channelsFit =
                mMg == 1 && mFuncs->dwconvChannels && mGeom.kernel[0] * mGeom.kernel[1] <= kDwChannelMaxTaps;
            if (channelsFit && (forced == 2 || (forced == 0 && mGeom.output[1] <= mFuncs->dwLanes))) {
                return planChannelDepthwise(inputs[0]->length(0), c, w, b);
            }
            if (mGeom.strides[1] <= 2 && mFuncs->dwconvRows) {
                return planPackedDepthwise(inputs[0]->length(0), c);
            }
            return NO_ERROR;
        }
        const bool is1x1 = mGeom.kernel[0] == 1 && mGeom.kernel[1] == 1 && mGeom.strides[0] == 1 &&
                           mGeom.strides[1] == 1 && mGeom.padBegin[0] == 0 && mGeom.padBegin[1] == 0 &&
                           mGeom.output[0] == mGeom.input[0] && mGeom.output[1] == mGeom.input[1];
        mKind = is1x1 ? FastKind::GEMM_1X1 : FastKind::IM2COL;
        if (is1x1 && mN == 1 && group == 1) {
            mKind = FastKind::GEMV_1X1;
            mWeights.assign(w, w + (int64_t)mOutChannels * mK);
            mBias.assign((size_t)mOutChannels, 0.0f);
            if (b) {
                mBias.assign(b, b + mOutChannels);
            }
            mPackedA.clear();
            mPackedA.shrink_to_fit();
            snprintf(mAlgo, sizeof(mAlgo), "gemv-1x1");
            return NO_ERROR;
        }
        const int unit = chooseWinogradUnit(inputs[0]->length(0), c, is1x1);
        if (unit > 0) {
            if (mWino.unit() != unit && !mWino.prepareWeights(*mFuncs, unit, mWinoShape, w, b)) {
                return error(NOT_SUPPORT, "Convolution: cannot build Winograd F(%d, 3) transforms", unit);
            }
            mKind = FastKind::WINOGRAD;
            mPackedA.clear();
            mPackedA.shrink_to_fit();
            const size_t bytes = mWino.plan(mWinoShape, mPool ? mPool->threads() : 1);
            if (!static_cast<CPUBackend*>(backend())->reserveScratch(bytes)) {
                return OUT_OF_MEMORY;
            }
            snprintf(mAlgo, sizeof(mAlgo), "winograd-f%d %s %s", unit, mFuncs->winoName, mFuncs->sgemmName);
            return NO_ERROR;
        }
        // weights: per group an [Mg x K] block of W (row-major [M, Cg, kh, kw]) packed for the kernel
        const int64_t packedA = gemmPackedASize(*mFuncs, mMg, mK);
        mPackedA.assign((size_t)(packedA * group), 0.0f);
        const int mgPad = (mMg + mFuncs->mr - 1) / mFuncs->mr * mFuncs->mr;
        mBias.assign((size_t)mgPad * group, 0.0f);
        for (int g = 0; g < group; ++g) {
            gemmPackA(*mFuncs, w + (int64_t)g * mMg * mK, mK, mMg, mK, mPackedA.data() + g * packedA);
            for (int i = 0; b && i < mMg; ++i) {
                mBias[(size_t)g * mgPad + i] = b[g * mMg + i];
            }
        }
        mBiasStride = mgPad;
        mPackedAStride = packedA;
        // im2col from padded planes where the horizontal stride allows (1 or 2)
        mPaddedIm2col = !is1x1 && mIm2colPlane.plan(mGeom.input[0], mGeom.input[1], mGeom.output[0], mGeom.output[1],
                                                    mGeom.kernel[0], mGeom.kernel[1], mGeom.strides[0],
                                                    mGeom.strides[1], mGeom.dilations[0], mGeom.dilations[1],
                                                    mGeom.padBegin[0], mGeom.padBegin[1], 1);
        // the direct im2col's table, per output column: top-left input position of its window
        const bool directIm2col = !is1x1 && !mPaddedIm2col;
        mIy0.resize(directIm2col ? (size_t)mN : 0);
        mIx0.resize(directIm2col ? (size_t)mN : 0);
        for (int oy = 0, j = 0; directIm2col && oy < mGeom.output[0]; ++oy) {
            for (int ox = 0; ox < mGeom.output[1]; ++ox, ++j) {
                mIy0[j] = oy * mGeom.strides[0] - mGeom.padBegin[0];
                mIx0[j] = ox * mGeom.strides[1] - mGeom.padBegin[1];
            }
        }
        mPackedBFloats = (gemmPackedBSize(*mFuncs, mN, mK) + 15) / 16 * 16;
        const int64_t planesFloats = mPaddedIm2col ? mIm2colPlane.planeFloats * mCg : 0;
        // scratch: one (batch, group)'s packed B (and padded planes), shared by the backend's Executions
        if (!static_cast<CPUBackend*>(backend())->reserveScratch(sizeof(float) *
                                                                 (size_t)(mPackedBFloats + planesFloats))) {
            return OUT_OF_MEMORY;
        }
        snprintf(mAlgo, sizeof(mAlgo), "%s %s", is1x1 ? "gemm-1x1" : "im2col-gemm", mFuncs->sgemmName);
        return NO_ERROR;
    }

    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        const float* x = inputs[0]->host<float>();
        float* y = outputs[0]->host<float>();
        const int batch = inputs[0]->length(0);
        const int c = inputs[0]->length(1);
        const int ih = mGeom.input[0], iw = mGeom.input[1];
        if (mKind == FastKind::DEPTHWISE_CHANNELS) {
            DepthwiseChannelsJob job;
            job.f = mFuncs;
            job.g = &mDwcGeom;
            job.x = x;
            job.wv = mWeights.data();
            job.bv = mBias.data();
            job.y = y;
            job.scratch = reinterpret_cast<float*>(static_cast<CPUBackend*>(backend())->scratch());
            job.scratchFloats = mDwcScratchFloats;
            job.channels = c;
            job.blocks = (c + mFuncs->dwLanes - 1) / mFuncs->dwLanes;
            job.batch = batch;
            job.taps = mGeom.kernel[0] * mGeom.kernel[1];
            job.tasks = mDwTasks;
            job.post = &mPost;
            parallelFor(mPool, mDwTasks, job);
            return NO_ERROR;
        }
        if (mKind == FastKind::DEPTHWISE && mPackedDepthwise) {
            DepthwisePackedJob job;
            job.f = mFuncs;
            job.x = x;
            job.w = mWeights.data();
            job.bias = mBias.data();
            job.y = y;
            job.scratch = reinterpret_cast<float*>(static_cast<CPUBackend*>(backend())->scratch());
            job.plane = &mPlane;
            job.channels = c;
            job.mg = mMg;
            job.batch = batch;
            job.oh = mGeom.output[0];
            job.ow = mGeom.output[1];
            job.taps = mGeom.kernel[0] * mGeom.kernel[1];
            job.tasks = mDwTasks;
            job.post = mPost;
            parallelFor(mPool, mDwTasks, job);
            return NO_ERROR;
        }
        if (mKind == FastKind::DEPTHWISE) {
            DepthwiseJob job;
            job.x = x;
            job.w = mWeights.data();
            job.bias = mBias.data();
            job.y = y;
            job.channels = c;
            job.mg = mMg;
            job.ih = ih;
            job.iw = iw;
            job.oh = mGeom.output[0];
            job.ow = mGeom.output[1];
            job.kh = mGeom.kernel[0];
            job.kw = mGeom.kernel[1];
            job.sh = mGeom.strides[0];
            job.sw = mGeom.strides[1];
            job.ph = mGeom.padBegin[0];
            job.pw = mGeom.padBegin[1];
            job.dh = mGeom.dilations[0];
            job.dw = mGeom.dilations[1];
            job.oxBegin = mOxBegin;
            job.oxEnd = mOxEnd;
            job.post = mPost;
            parallelFor(mPool, batch * mOutChannels, job);
            return NO_ERROR;
        }
        if (mKind == FastKind::GEMV_1X1) {
            GemvJob job;
            job.w = mWeights.data();
            job.bias = mBias.data();
            job.m = mOutChannels;
            job.k = mK;
            job.post = &mPost;
            for (int nb = 0; nb < batch; ++nb) {
                job.x = x + (int64_t)nb * c;
                job.y = y + (int64_t)nb * mOutChannels;
                parallelFor(mPool, (mOutChannels + GemvJob::kChunk - 1) / GemvJob::kChunk, job);
            }
            return NO_ERROR;
        }
        if (mKind == FastKind::WINOGRAD) {
            mWino.run(x, y, reinterpret_cast<float*>(static_cast<CPUBackend*>(backend())->scratch()), mPost, mPool);
            return NO_ERROR;
        }
        const int group = mAttrs.group;
        const int nr = mFuncs->nr;
        const int panels = (mN + nr - 1) / nr;
        float* packedB = reinterpret_cast<float*>(static_cast<CPUBackend*>(backend())->scratch());
        for (int nb = 0; nb < batch; ++nb) {
            for (int g = 0; g < group; ++g) {
                if (mPaddedIm2col) {
                    float* planes = packedB + mPackedBFloats;
                    BuildPlanesJob build;
                    build.plane = &mIm2colPlane;
                    build.x = x + ((int64_t)nb * c + (int64_t)g * mCg) * ih * iw;
                    build.planes = planes;
                    build.inPlane = (int64_t)ih * iw;
                    parallelFor(mPool, mCg, build);
                    PaddedIm2ColJob pack;
                    pack.plane = &mIm2colPlane;
                    pack.planes = planes;
                    pack.packed = packedB;
                    pack.cg = mCg;
                    pack.taps = mGeom.kernel[0] * mGeom.kernel[1];
                    pack.n = mN;
                    pack.ow = mGeom.output[1];
                    pack.nr = nr;
                    parallelFor(mPool, panels, pack);
                } else {
                    packDirect(x + ((int64_t)nb * c + (int64_t)g * mCg) * ih * iw, packedB, panels);
                }
                float* yg = y + ((int64_t)nb * mOutChannels + (int64_t)g * mMg) * mN;
                gemmRunPacked(*mFuncs, mMg, mN, mK, mPackedA.data() + g * mPackedAStride, packedB,
                              mBias.data() + (size_t)g * mBiasStride, yg, mN, mPost, mPool);
            }
        }
        return NO_ERROR;
    }

private:
    /** B panels straight from the input planes of one group (1x1 copies, or im2col with bounds checks) */
    void packDirect(const float* xg, float* packedB, int panels) {
        Im2ColJob pack;
        pack.x = xg;
        pack.packed = packedB;
        pack.iy0 = mIy0.data();
        pack.ix0 = mIx0.data();
        pack.cg = mCg;
        pack.kh = mGeom.kernel[0];
        pack.kw = mGeom.kernel[1];
        pack.ih = mGeom.input[0];
        pack.iw = mGeom.input[1];
        pack.dh = mGeom.dilations[0];
        pack.dw = mGeom.dilations[1];
        pack.n = mN;
        pack.ow = mGeom.output[1];
        pack.sw = mGeom.strides[1];
        pack.nr = mFuncs->nr;
        pack.direct1x1 = mKind == FastKind::GEMM_1X1;
        parallelFor(mPool, panels, pack);
    }

    /**
     * 0: im2col / 1x1 GEMM; else the Winograd output tile size, picked by cost among the sizes the
     * precision allows (Precision_High: F(2) only, whose error stays at plain fp32 GEMM's; F(4) doubles
     * the end-to-end error of resnet50 / inception_v3 to ~9e-5, too close to High's 1e-4 budget),
     * or forced by MNN_CONV_ALGO. Fills mWinoShape.
     */
    int chooseWinogradUnit(int batch, int c, bool is1x1) {
        bool forceGemm = false;
        const int forced = forcedWinogradUnit(&forceGemm);
        const bool eligible = mAttrs.group == 1 && mGeom.kernel[0] == 3 && mGeom.kernel[1] == 3 &&
                              mGeom.strides[0] == 1 && mGeom.strides[1] == 1 && mGeom.dilations[0] == 1 &&
                              mGeom.dilations[1] == 1 && mFuncs->winoInput;
        if (!eligible || forceGemm) {
            return 0;
        }
        mWinoShape.batch = batch;
        mWinoShape.inC = c;
        mWinoShape.outC = mOutChannels;
        mWinoShape.ih = mGeom.input[0];
        mWinoShape.iw = mGeom.input[1];
        mWinoShape.oh = mGeom.output[0];
        mWinoShape.ow = mGeom.output[1];
        mWinoShape.r = 3;
        mWinoShape.padTop = mGeom.padBegin[0];
        mWinoShape.padLeft = mGeom.padBegin[1];
        if (forced > 0) {
            return WinogradConv::supportedUnit(forced) ? forced : 0;
        }
        const int threads = mPool ? mPool->threads() : 1;
        const bool high = static_cast<CPUBackend*>(backend())->precision() == BackendConfig::Precision_High;
        double best = forced < 0 ? 1e300 : gemmConvCost(*mFuncs, mMg, mN, mK, batch, threads, is1x1);
        int unit = 0;
        for (int m : {2, 4, 6}) {
            if (high && m > 2) {
                continue;
            }
            const double cost = WinogradConv::cost(*mFuncs, m, mWinoShape, threads);
            if (cost < best) {
                best = cost;
                unit = m;
            }
        }
        return unit;
    }

    /** weights / biases interleaved per block of dwLanes channels, geometry, tasks and scratch */
    ErrorCode planChannelDepthwise(int batch, int channels, const float* w, const float* b) {
        const int L = mFuncs->dwLanes, taps = mGeom.kernel[0] * mGeom.kernel[1];
        const int blocks = (channels + L - 1) / L;
        mWeights.assign((size_t)blocks * taps * L, 0.0f);
        mBias.assign((size_t)blocks * L, 0.0f);
        for (int ch = 0; ch < channels; ++ch) {
            const int blk = ch / L, l = ch % L;
            for (int t = 0; t < taps; ++t) {
                mWeights[((size_t)blk * taps + t) * L + l] = w[(int64_t)ch * taps + t];
            }
            mBias[(size_t)blk * L + l] = b ? b[ch] : 0.0f;
        }
        mDwcGeom = DwChannelGeom{mGeom.input[0],     mGeom.input[1],     mGeom.output[0],   mGeom.output[1],
                                 mGeom.kernel[0],    mGeom.kernel[1],    mGeom.strides[0],  mGeom.strides[1],
                                 mGeom.dilations[0], mGeom.dilations[1], mGeom.padBegin[0], mGeom.padBegin[1]};
        mDwcScratchFloats = (dwChannelScratchFloats(mDwcGeom, L) + 15) / 16 * 16;
        const int threads = mPool ? mPool->threads() : 1;
        const int64_t items = (int64_t)batch * blocks;
        mDwTasks = (int)std::max<int64_t>(1, std::min<int64_t>(items, threads > 1 ? 4 * threads : 1));
        if (!static_cast<CPUBackend*>(backend())->reserveScratch(sizeof(float) *
                                                                 (size_t)(mDwcScratchFloats * mDwTasks))) {
            return OUT_OF_MEMORY;  // reported by the Session (the backend's scratch reason)
        }
        mKind = FastKind::DEPTHWISE_CHANNELS;
        snprintf(mAlgo, sizeof(mAlgo), "depthwise dwconv_channels__%s", cpuTierName(mFuncs->tier));
        return NO_ERROR;
    }

    /** layout of the padded scratch plane of the vector depthwise kernel (horizontal stride 1 or 2) */
    ErrorCode planPackedDepthwise(int batch, int channels) {
        if (!mPlane.plan(mGeom.input[0], mGeom.input[1], mGeom.output[0], mGeom.output[1], mGeom.kernel[0],
                         mGeom.kernel[1], mGeom.strides[0], mGeom.strides[1], mGeom.dilations[0], mGeom.dilations[1],
                         mGeom.padBegin[0], mGeom.padBegin[1], mFuncs->dwLanes)) {
            return NO_ERROR;  // the direct loop
        }
        const int threads = mPool ? mPool->threads() : 1;
        const int64_t total = (int64_t)batch * channels;
        mDwTasks = (int)std::max<int64_t>(1, std::min<int64_t>(total, threads > 1 ? 4 * threads : 1));
        if (!static_cast<CPUBackend*>(backend())->reserveScratch(sizeof(float) *
                                                                 (size_t)(mPlane.planeFloats * mDwTasks))) {
            return OUT_OF_MEMORY;  // reported by the Session (the backend's scratch reason)
        }
        mPackedDepthwise = true;
        snprintf(mAlgo, sizeof(mAlgo), "depthwise %s", mFuncs->dwconvName);
        return NO_ERROR;
    }

    ConvAttrs mAttrs;
    GemmPost mPost;
    ThreadPool* mPool = nullptr;
    const CPUCoreFunctions* mFuncs = nullptr;
    FastKind mKind = FastKind::IM2COL;
    WindowGeometry mGeom;
    int mOutChannels = 0, mCg = 0, mMg = 0, mK = 0, mN = 0;
    int mOxBegin = 0, mOxEnd = 0;
    int64_t mPackedAStride = 0;
    size_t mBiasStride = 0;
    std::vector<float> mPackedA, mWeights, mBias;
    std::vector<int> mIy0, mIx0;
    // Winograd
    WinogradConv mWino;
    WinogradShape mWinoShape;
    // im2col from padded planes
    bool mPaddedIm2col = false;
    PaddedPlane mIm2colPlane;
    int64_t mPackedBFloats = 0;
    // vector depthwise
    DwChannelGeom mDwcGeom{};
    int64_t mDwcScratchFloats = 0;
    bool mPackedDepthwise = false;
    PaddedPlane mPlane;
    int mDwTasks = 1;
    char mAlgo[64];
};

static bool isConstFloat(const Tensor* t) {
    return t && CPUUtils::isFloat(t) && TensorUtils::describe(t)->usage == Tensor::InsideDescribe::CONSTANT &&
           t->host<float>() != nullptr;
}

Execution* createFastConvolution(const std::vector<Tensor*>& inputs, const ConvAttrs& attrs, Backend* backend) {
    const char* env = getenv("MNN_CONV_ALGO");
    if (env && strcmp(env, "reference") == 0) {
        return nullptr;
    }
    if (inputs.size() < 2 || !inputs[0] || !CPUUtils::isFloat(inputs[0]) || !isConstFloat(inputs[1]) ||
        inputs[1]->dimensions() != 4) {
        return nullptr;
    }
    if (inputs.size() > 2 && inputs[2] && !isConstFloat(inputs[2])) {
        return nullptr;
    }
    if (inputs[0]->dimensions() != 4 || attrs.group < 1) {
        return nullptr;
    }
    return new CPUConvolutionFast(backend, attrs);
}

}  // namespace MNN
