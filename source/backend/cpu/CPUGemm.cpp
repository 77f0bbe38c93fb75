#include "CPUGemm.hpp"
#include <string.h>
#include <algorithm>

namespace MNN {

void gemmPackA(const CPUCoreFunctions& f, const float* a, int64_t lda, int m, int k, float* packed) {
    const int mr = f.mr;
    const int panels = (m + mr - 1) / mr;
    for (int p = 0; p < panels; ++p) {
        float* dst = packed + (int64_t)p * mr * k;
        for (int i = 0; i < mr; ++i) {
            const int row = p * mr + i;
            if (row < m) {
                const float* src = a + (int64_t)row * lda;
                for (int q = 0; q < k; ++q) {
                    dst[(int64_t)q * mr + i] = src[q];
                }
            } else {
                for (int q = 0; q < k; ++q) {
                    dst[(int64_t)q * mr + i] = 0.0f;
                }
            }
        }
    }
}

void gemmPackB(const CPUCoreFunctions& f, const float* b, int64_t ldb, int n, int k, float* packed) {
    const int nr = f.nr;
    const int panels = (n + nr - 1) / nr;
    for (int p = 0; p < panels; ++p) {
        float* dst = packed + (int64_t)p * nr * k;
        const int c0 = p * nr;
        const int cols = std::min(nr, n - c0);
        for (int q = 0; q < k; ++q) {
            const float* src = b + (int64_t)q * ldb + c0;
            float* d = dst + (int64_t)q * nr;
            memcpy(d, src, sizeof(float) * cols);
            for (int j = cols; j < nr; ++j) {
                d[j] = 0.0f;
            }
        }
    }
}

namespace {
constexpr int kBlockK = 256;
constexpr int kMaxTile = 8 * 32;

struct GemmJob {
    const CPUCoreFunctions* f;
    int m, n, k;
    const float* a;
    const float* b;
    const float* bias;
    float* c;
    int64_t ldc;
    const GemmPost* post;
    int mPanels, nPanels, tasksM, tasksN;

    void operator()(int t) const {
        const int mr = f->mr, nr = f->nr;
        const int tm = t / tasksN, tn = t % tasksN;
        const int mp0 = (int)((int64_t)mPanels * tm / tasksM), mp1 = (int)((int64_t)mPanels * (tm + 1) / tasksM);
        const int np0 = (int)((int64_t)nPanels * tn / tasksN), np1 = (int)((int64_t)nPanels * (tn + 1) / tasksN);
        float tile[kMaxTile];
        for (int k0 = 0; k0 < k || (k0 == 0 && k == 0); k0 += kBlockK) {
            const int kc = std::min(kBlockK, k - k0);
            const int accumulate = k0 > 0 ? 1 : 0;
            const GemmPost* last = (k0 + kBlockK >= k) ? post : nullptr;
            for (int np = np0; np < np1; ++np) {
                const float* bp = b + (int64_t)np * nr * k + (int64_t)k0 * nr;
                const int cols = std::min(nr, n - np * nr);
                for (int mp = mp0; mp < mp1; ++mp) {
                    const float* ap = a + (int64_t)mp * mr * k + (int64_t)k0 * mr;
                    const int rows = std::min(mr, m - mp * mr);
                    float* cp = c + (int64_t)mp * mr * ldc + (int64_t)np * nr;
                    if (rows == mr && cols == nr) {
                        f->sgemm(kc, ap, bp, cp, ldc, bias + mp * mr, accumulate, last);
                        continue;
                    }
                    if (accumulate) {
                        for (int i = 0; i < rows; ++i) {
                            memcpy(tile + i * nr, cp + i * ldc, sizeof(float) * cols);
                        }
                    }
                    f->sgemm(kc, ap, bp, tile, nr, bias + mp * mr, accumulate, last);
                    for (int i = 0; i < rows; ++i) {
                        memcpy(cp + i * ldc, tile + i * nr, sizeof(float) * cols);
                    }
                }
            }
            if (k == 0) {
                break;
            }
        }
        if (post && post->act == 3) {
            // the table's unary kernel once per row over this task's columns (long runs vectorise;
            // per-tile rows of nr would be mostly call overhead and scalar tails)
            const int c0 = np0 * nr, c1 = std::min(n, np1 * nr);
            const int r1 = std::min(m, mp1 * mr);
            for (int i = mp0 * mr; i < r1 && c1 > c0; ++i) {
                post->unary(post->unaryOp, c + (int64_t)i * ldc + c0, c + (int64_t)i * ldc + c0, c1 - c0, post->lo,
                            post->hi);
            }
        }
    }
};
} // namespace

void gemmRunPacked(const CPUCoreFunctions& f, int m, int n, int k, const float* packedA, const float* packedB,
                   const float* biasPadded, float* c, int64_t ldc, const GemmPost& post, ThreadPool* pool) {
    if (m <= 0 || n <= 0) {
        return;
    }
    GemmJob job;
    job.f = &f;
    job.m = m;
    job.n = n;
    job.k = k;
    job.a = packedA;
    job.b = packedB;
    job.bias = biasPadded;
    job.c = c;
    job.ldc = ldc;
    job.post = post.act ? &post : nullptr;
    job.mPanels = (m + f.mr - 1) / f.mr;
    job.nPanels = (n + f.nr - 1) / f.nr;
    const int threads = pool ? pool->threads() : 1;
    if (threads <= 1) {
        job.tasksM = 1;
        job.tasksN = 1;
    } else if (job.nPanels >= 2 * threads) {
        job.tasksM = 1;
        job.tasksN = std::min(job.nPanels, 4 * threads);
    } else {
        job.tasksN = job.nPanels;
        job.tasksM = std::min(job.mPanels, (2 * threads + job.nPanels - 1) / job.nPanels);
    }
    parallelFor(pool, job.tasksM * job.tasksN, job);
}

} // namespace MNN
