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
constexpr int64_t kRowsOuterBBytes = 512 << 10;

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
            auto tileAt = [&](int np, int mp) {
                const float* bp = b + (int64_t)np * nr * k + (int64_t)k0 * nr;
                const int cols = std::min(nr, n - np * nr);
                const float* ap = a + (int64_t)mp * mr * k + (int64_t)k0 * mr;
                const int rows = std::min(mr, m - mp * mr);
                float* cp = c + (int64_t)mp * mr * ldc + (int64_t)np * nr;
                if (rows == mr && cols == nr) {
                    f->sgemm(kc, ap, bp, cp, ldc, bias + mp * mr, accumulate, last);
                    return;
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
            };
            // Row panels outer when this task's B panels fit in L2: C is then written along its rows
            // (MR streams the prefetchers follow) instead of an MR x NR tile in every one of M rows
            // per B panel, which for a short K (1x1 convolutions of few channels) is bound by the
            // stores' misses. Otherwise B panels outer, each reused from L1 by every row panel.
            if ((int64_t)(np1 - np0) * nr * kc * (int64_t)sizeof(float) <= kRowsOuterBBytes) {
                for (int mp = mp0; mp < mp1; ++mp) {
                    for (int np = np0; np < np1; ++np) {
                        tileAt(np, mp);
                    }
                }
            } else {
                for (int np = np0; np < np1; ++np) {
                    for (int mp = mp0; mp < mp1; ++mp) {
                        tileAt(np, mp);
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
}  // namespace

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

}  // namespace MNN

// ---- Strassen-Winograd ----
namespace MNN {

namespace {
int64_t pad16(int64_t v) {
    return (v + 15) / 16 * 16;
}

// c = a op b over rows x cols blocks (row strides lda, ldb, ldc); c may be a or b
void blockOp(const CPUCoreFunctions& f, VecBinaryOp op, int rows, int cols, const float* a, int64_t lda, const float* b,
             int64_t ldb, float* c, int64_t ldc) {
    for (int i = 0; i < rows; ++i) {
        f.binaryF32((int)op, a + i * lda, b + i * ldb, c + i * ldc, cols, 0);
    }
}
}  // namespace

int gemmStrassenLevels(int m, int n, int k, int maxLevels) {
    int levels = 0;
    while (levels < maxLevels && m % 2 == 0 && n % 2 == 0 && k % 2 == 0) {
        const double saved = (double)m * n * k / 8.0;
        const double added = kStrassenAddCost * ((double)m * k + (double)k * n + 1.75 * m * n);
        if (saved <= added) {
            break;
        }
        ++levels;
        m /= 2;
        n /= 2;
        k /= 2;
    }
    return levels;
}

int64_t gemmStrassenScratchFloats(const CPUCoreFunctions& f, int m, int n, int k, int levels) {
    if (levels <= 0) {
        return pad16(gemmPackedASize(f, m, k)) + pad16(gemmPackedBSize(f, n, k)) + pad16((m + f.mr - 1) / f.mr * f.mr);
    }
    const int m2 = m / 2, n2 = n / 2, k2 = k / 2;
    return pad16((int64_t)m2 * k2) + pad16((int64_t)k2 * n2) + pad16((int64_t)m2 * n2) +
           gemmStrassenScratchFloats(f, m2, n2, k2, levels - 1);
}

void gemmStrassen(const CPUCoreFunctions& f, int m, int n, int k, const float* a, int64_t lda, const float* b,
                  int64_t ldb, float* c, int64_t ldc, int levels, float* scratch, ThreadPool* pool) {
    if (levels <= 0) {
        float* pa = scratch;
        float* pb = pa + pad16(gemmPackedASize(f, m, k));
        float* zero = pb + pad16(gemmPackedBSize(f, n, k));
        const int mPad = (m + f.mr - 1) / f.mr * f.mr;
        memset(zero, 0, sizeof(float) * (size_t)mPad);
        gemmPackA(f, a, lda, m, k, pa);
        gemmPackB(f, b, ldb, n, k, pb);
        gemmRunPacked(f, m, n, k, pa, pb, zero, c, ldc, GemmPost(), pool);
        return;
    }
    const int m2 = m / 2, n2 = n / 2, k2 = k / 2;
    const float *a11 = a, *a12 = a + k2, *a21 = a + m2 * lda, *a22 = a21 + k2;
    const float *b11 = b, *b12 = b + n2, *b21 = b + k2 * ldb, *b22 = b21 + n2;
    float *c11 = c, *c12 = c + n2, *c21 = c + m2 * ldc, *c22 = c21 + n2;
    float* x = scratch;                      // m2 x k2
    float* y = x + pad16((int64_t)m2 * k2);  // k2 x n2
    float* z = y + pad16((int64_t)k2 * n2);  // m2 x n2
    float* child = z + pad16((int64_t)m2 * n2);
    const VecBinaryOp add = VecBinaryOp::ADD, sub = VecBinaryOp::SUB;
    auto mul = [&](const float* p, int64_t ldp, const float* q, int64_t ldq, float* r, int64_t ldr) {
        gemmStrassen(f, m2, n2, k2, p, ldp, q, ldq, r, ldr, levels - 1, child, pool);
    };
    // S3 = A11 - A21, T3 = B22 - B12: M7 -> C21
    blockOp(f, sub, m2, k2, a11, lda, a21, lda, x, k2);
    blockOp(f, sub, k2, n2, b22, ldb, b12, ldb, y, n2);
    mul(x, k2, y, n2, c21, ldc);
    // S1 = A21 + A22, T1 = B12 - B11: M5 -> C22
    blockOp(f, add, m2, k2, a21, lda, a22, lda, x, k2);
    blockOp(f, sub, k2, n2, b12, ldb, b11, ldb, y, n2);
    mul(x, k2, y, n2, c22, ldc);
    // S2 = S1 - A11, T2 = B22 - T1: M6 -> C12
    blockOp(f, sub, m2, k2, x, k2, a11, lda, x, k2);
    blockOp(f, sub, k2, n2, b22, ldb, y, n2, y, n2);
    mul(x, k2, y, n2, c12, ldc);
    // S4 = A12 - S2: M3 = S4 B22 -> C11
    blockOp(f, sub, m2, k2, a12, lda, x, k2, x, k2);
    mul(x, k2, b22, ldb, c11, ldc);
    // M1 = A11 B11 -> Z
    mul(a11, lda, b11, ldb, z, n2);
    blockOp(f, add, m2, n2, c12, ldc, z, n2, c12, ldc);     // U2 = M1 + M6
    blockOp(f, add, m2, n2, c21, ldc, c12, ldc, c21, ldc);  // U3 = U2 + M7
    blockOp(f, add, m2, n2, c12, ldc, c22, ldc, c12, ldc);  // U4 = U2 + M5
    blockOp(f, add, m2, n2, c22, ldc, c21, ldc, c22, ldc);  // C22 = U7 = U3 + M5
    blockOp(f, add, m2, n2, c12, ldc, c11, ldc, c12, ldc);  // C12 = U5 = U4 + M3
    // T4 = T2 - B21: M4 = A22 T4 -> C11, C21 = U6 = U3 - M4
    blockOp(f, sub, k2, n2, y, n2, b21, ldb, y, n2);
    mul(a22, lda, y, n2, c11, ldc);
    blockOp(f, sub, m2, n2, c21, ldc, c11, ldc, c21, ldc);
    // M2 = A12 B21 -> C11, C11 = U1 = M1 + M2
    mul(a12, lda, b21, ldb, c11, ldc);
    blockOp(f, add, m2, n2, c11, ldc, z, n2, c11, ldc);
}

}  // namespace MNN
