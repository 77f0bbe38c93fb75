#include "CPUConvolutionWinograd.hpp"
#include <string.h>
#include <algorithm>
#include "backend/cpu/CPUGemm.hpp"
#include "backend/cpu/WinogradMatrices.hpp"

namespace MNN {

namespace {
constexpr int kWinogradMaxLanes = 64;  // >= every tier's nr
int64_t roundUp(int64_t v, int64_t q) {
    return (v + q - 1) / q * q;
}
int64_t ceilDiv(int64_t v, int64_t q) {
    return (v + q - 1) / q;
}
// splits the output channels when there are too few tile panels to keep every thread busy
int splitFor(int64_t panelItems, int threads, int outC, int mr) {
    if (threads <= 1 || panelItems >= 2 * threads) {
        return 1;
    }
    const int64_t want = ceilDiv(2 * threads, panelItems);
    return (int)std::max<int64_t>(1, std::min<int64_t>(want, ceilDiv(outC, mr)));
}
}  // namespace

bool WinogradConv::prepareWeights(const CPUCoreFunctions& f, int m, const WinogradShape& s, const float* w,
                                  const float* bias) {
    WinogradMatrices mat;
    if (!supportedUnit(m) || f.nr > kWinogradMaxLanes || !makeWinogradMatrices(m, s.r, &mat)) {
        return false;
    }
    mFuncs = &f;
    mM = m;
    mAlpha = mat.alpha;
    const int alpha = mAlpha, r = s.r, M = s.outC, C = s.inC;
    mAt.assign(mat.at.begin(), mat.at.end());
    mBt.assign(mat.bt.begin(), mat.bt.end());
    // U[xi][mo][c] = (G g G^T)[a][b] in double, written straight into xi's packed A block (MR-row
    // panels, k-major: element (mo, c) at panel mo / mr, offset c * mr + mo % mr)
    const int xis = alpha * alpha, mr = f.mr;
    mPackedUStride = gemmPackedASize(f, M, C);
    mPackedU.assign((size_t)(mPackedUStride * xis), 0.0f);
    std::vector<double> gg((size_t)alpha * r);
    for (int mo = 0; mo < M; ++mo) {
        float* panel = mPackedU.data() + (int64_t)(mo / mr) * mr * C + mo % mr;
        for (int c = 0; c < C; ++c) {
            const float* k = w + ((int64_t)mo * C + c) * r * r;
            // gg = G g  (alpha x r)
            for (int a = 0; a < alpha; ++a) {
                for (int j = 0; j < r; ++j) {
                    double acc = 0.0;
                    for (int i = 0; i < r; ++i) {
                        acc += mat.g[(size_t)a * r + i] * k[i * r + j];
                    }
                    gg[(size_t)a * r + j] = acc;
                }
            }
            for (int a = 0; a < alpha; ++a) {
                for (int b = 0; b < alpha; ++b) {
                    double acc = 0.0;
                    for (int j = 0; j < r; ++j) {
                        acc += gg[(size_t)a * r + j] * mat.g[(size_t)b * r + j];
                    }
                    panel[(a * alpha + b) * mPackedUStride + (int64_t)c * mr] = (float)acc;
                }
            }
        }
    }
    mBias.assign((size_t)M, 0.0f);
    if (bias) {
        mBias.assign(bias, bias + M);
    }
    mZeroBias.assign((size_t)roundUp(M, f.mr), 0.0f);
    return true;
}

size_t WinogradConv::plan(const WinogradShape& s, int threads) {
    const auto& f = *mFuncs;
    mShape = s;
    const int m = mM, alpha = mAlpha;
    mTilesX = (int)ceilDiv(s.ow, m);
    mTiles = (int)ceilDiv(s.oh, m) * mTilesX;
    mPanels = (int)ceilDiv(mTiles, f.nr);
    mThreads = std::max(1, threads);
    mSplitM = splitFor((int64_t)s.batch * mPanels, mThreads, s.outC, f.mr);
    mChunkM = (int)roundUp(ceilDiv(s.outC, mSplitM), f.mr);
    mSplitM = (int)ceilDiv(s.outC, mChunkM);
    mItems = (int64_t)s.batch * mPanels * mSplitM;
    // up to two tasks per thread (each with its scratch): a thread that is descheduled on a busy
    // machine leaves a task the others can claim instead of the whole layer waiting for it
    mThreads = (int)std::min<int64_t>(mThreads > 1 ? 2 * mThreads : 1, mItems);
    const int64_t nr = f.nr, xis = alpha * alpha;
    // d, v, o, y per thread, each rounded to 64 bytes
    mScratchPerThread = roundUp(xis * nr, 16) + roundUp(xis * s.inC * nr, 16) + roundUp(xis * mChunkM * nr, 16) +
                        roundUp((int64_t)m * m * nr, 16);
    return sizeof(float) * (size_t)(mScratchPerThread * mThreads);
}

double WinogradConv::cost(const CPUCoreFunctions& f, int m, const WinogradShape& s, int threads) {
    // unit: one multiply-add lane of the GEMM micro-kernel. Transforms: ~alpha^3 vector lane-ops per
    // tile and channel (half the matrix entries are zero, two passes); gathering / scattering a
    // scalar element costs ~10 units (a load and a store at ~1 cycle vs 16 lanes per cycle).
    const int64_t alpha = m + s.r - 1, nr = f.nr;
    const int64_t tiles = ceilDiv(s.oh, m) * ceilDiv(s.ow, m);
    const int64_t panels = ceilDiv(tiles, nr), lanes = panels * nr;
    const int split = splitFor((int64_t)s.batch * panels, threads, s.outC, f.mr);
    // alpha^2 GEMMs of one panel each (kGemmFactor)
    const double gemm = kGemmFactor * (alpha * alpha) * roundUp(s.outC, f.mr) * lanes * s.inC;
    const double in = (double)lanes * s.inC * (10.0 * alpha * alpha + alpha * alpha * alpha) * split;
    const double out = (double)lanes * s.outC * (alpha * alpha * m + m * m * alpha + 10.0 * m * m);
    const int64_t items = (int64_t)s.batch * panels * split;
    const int t = (int)std::max<int64_t>(1, std::min<int64_t>(threads, items));
    const double imbalance = (double)ceilDiv(items, t) * t / (double)items;
    return s.batch * (gemm + in + out) * imbalance / t;
}

// Per panel lane (tile): where its input window and output block start, and whether they lie
// wholly inside the planes (then the copies need no bounds checks).
struct WinogradLane {
    int32_t iy0, ix0, oy0, ox0;
    bool interiorIn, fullOut;
};

// d[(r * A + s) * nr + j] = x[iy0 + r][ix0 + s] of lane j's tile (zero outside the plane); A > 0
// unrolls for alpha == A
template <int A>
static void gatherTiles(const float* plane, int ih, int iw, const WinogradLane* lanes, int count, int alphaIn, int nr,
                        float* d) {
    const int alpha = A > 0 ? A : alphaIn;
    for (int j = 0; j < count; ++j) {
        const WinogradLane& l = lanes[j];
        if (l.interiorIn) {
            const float* src = plane + (int64_t)l.iy0 * iw + l.ix0;
            for (int r = 0; r < alpha; ++r) {
                for (int c = 0; c < alpha; ++c) {
                    d[(r * alpha + c) * nr + j] = src[(int64_t)r * iw + c];
                }
            }
            continue;
        }
        for (int r = 0; r < alpha; ++r) {
            const int iy = l.iy0 + r;
            for (int c = 0; c < alpha; ++c) {
                const int ix = l.ix0 + c;
                d[(r * alpha + c) * nr + j] =
                    ((unsigned)iy < (unsigned)ih && (unsigned)ix < (unsigned)iw) ? plane[(int64_t)iy * iw + ix] : 0.0f;
            }
        }
    }
}

// y[(oy0 + a) * ow + ox0 + b] = yt[(a * M + b) * nr + j] for every lane's block (clipped at the plane)
template <int M>
static void scatterTiles(const float* yt, const WinogradLane* lanes, int count, int mIn, int nr, int oh, int ow,
                         float* y) {
    const int m = M > 0 ? M : mIn;
    for (int j = 0; j < count; ++j) {
        const WinogradLane& l = lanes[j];
        float* dst = y + (int64_t)l.oy0 * ow + l.ox0;
        if (l.fullOut) {
            for (int a = 0; a < m; ++a) {
                for (int b = 0; b < m; ++b) {
                    dst[(int64_t)a * ow + b] = yt[(a * m + b) * nr + j];
                }
            }
            continue;
        }
        const int hy = std::min(m, oh - l.oy0), hx = std::min(m, ow - l.ox0);
        for (int a = 0; a < hy; ++a) {
            for (int b = 0; b < hx; ++b) {
                dst[(int64_t)a * ow + b] = yt[(a * m + b) * nr + j];
            }
        }
    }
}

struct WinogradConv::Job {
    const WinogradConv* self;
    const float* x;
    float* y;
    float* scratch;
    const GemmPost* post;

    void gather(const float* plane, const WinogradLane* lanes, int count, float* d) const {
        const auto& s = self->mShape;
        const int nr = self->mFuncs->nr, alpha = self->mAlpha;
        switch (alpha) {
            case 4:
                return gatherTiles<4>(plane, s.ih, s.iw, lanes, count, alpha, nr, d);
            case 6:
                return gatherTiles<6>(plane, s.ih, s.iw, lanes, count, alpha, nr, d);
            case 8:
                return gatherTiles<8>(plane, s.ih, s.iw, lanes, count, alpha, nr, d);
            default:
                return gatherTiles<0>(plane, s.ih, s.iw, lanes, count, alpha, nr, d);
        }
    }
    void scatter(const float* yt, const WinogradLane* lanes, int count, float* plane) const {
        const auto& s = self->mShape;
        const int nr = self->mFuncs->nr, m = self->mM;
        switch (m) {
            case 2:
                return scatterTiles<2>(yt, lanes, count, m, nr, s.oh, s.ow, plane);
            case 4:
                return scatterTiles<4>(yt, lanes, count, m, nr, s.oh, s.ow, plane);
            case 6:
                return scatterTiles<6>(yt, lanes, count, m, nr, s.oh, s.ow, plane);
            default:
                return scatterTiles<0>(yt, lanes, count, m, nr, s.oh, s.ow, plane);
        }
    }

    void operator()(int tid) const {
        const auto& w = *self;
        const auto& s = w.mShape;
        const auto& f = *w.mFuncs;
        const int nr = f.nr, alpha = w.mAlpha, m = w.mM, xis = alpha * alpha;
        float* d = scratch + w.mScratchPerThread * tid;
        float* v = d + roundUp((int64_t)xis * nr, 16);
        float* o = v + roundUp((int64_t)xis * s.inC * nr, 16);
        float* yt = o + roundUp((int64_t)xis * w.mChunkM * nr, 16);
        const int64_t vStride = (int64_t)s.inC * nr, oStride = (int64_t)w.mChunkM * nr;
        const int64_t i0 = w.mItems * tid / w.mThreads, i1 = w.mItems * (tid + 1) / w.mThreads;
        const int64_t inPlane = (int64_t)s.ih * s.iw, outPlane = (int64_t)s.oh * s.ow;
        WinogradLane lanes[kWinogradMaxLanes];
        int64_t transformed = -1;  // (batch, panel) whose V is in v
        GemmPost none;
        for (int64_t item = i0; item < i1; ++item) {
            const int64_t bp = item / w.mSplitM;
            const int mc = (int)(item % w.mSplitM);
            const int nb = (int)(bp / w.mPanels), panel = (int)(bp % w.mPanels);
            const int t0 = panel * nr;
            const int count = std::min(nr, w.mTiles - t0);
            for (int j = 0; j < count; ++j) {
                const int t = t0 + j;
                WinogradLane& l = lanes[j];
                l.oy0 = (t / w.mTilesX) * m;
                l.ox0 = (t % w.mTilesX) * m;
                l.iy0 = l.oy0 - s.padTop;
                l.ix0 = l.ox0 - s.padLeft;
                l.interiorIn = l.iy0 >= 0 && l.ix0 >= 0 && l.iy0 + alpha <= s.ih && l.ix0 + alpha <= s.iw;
                l.fullOut = l.oy0 + m <= s.oh && l.ox0 + m <= s.ow;
            }
            if (bp != transformed) {
                if (count < nr) {
                    // lanes past the last tile stay zero (the GEMM and transforms run on whole panels)
                    memset(d, 0, sizeof(float) * (size_t)(xis * nr));
                }
                for (int c = 0; c < s.inC; ++c) {
                    gather(x + ((int64_t)nb * s.inC + c) * inPlane, lanes, count, d);
                    f.winoInput(d, w.mBt.data(), alpha, nr, v + (int64_t)c * nr, vStride);
                }
                transformed = bp;
            }
            const int m0 = mc * w.mChunkM, rows = std::min(w.mChunkM, s.outC - m0);
            for (int xi = 0; xi < xis; ++xi) {
                gemmRunPacked(f, rows, nr, s.inC, w.mPackedU.data() + xi * w.mPackedUStride + (int64_t)m0 * s.inC,
                              v + xi * vStride, w.mZeroBias.data(), o + xi * oStride, nr, none, nullptr);
            }
            for (int i = 0; i < rows; ++i) {
                const int mo = m0 + i;
                f.winoOutput(o + (int64_t)i * nr, oStride, w.mAt.data(), alpha, m, nr, w.mBias[mo], yt,
                             post->act ? post : nullptr);
                scatter(yt, lanes, count, y + ((int64_t)nb * s.outC + mo) * outPlane);
            }
        }
    }
};

void WinogradConv::run(const float* x, float* y, float* scratch, const GemmPost& post, ThreadPool* pool) const {
    Job job;
    job.self = this;
    job.x = x;
    job.y = y;
    job.scratch = scratch;
    job.post = &post;
    parallelFor(pool, mThreads, job);
}

}  // namespace MNN
