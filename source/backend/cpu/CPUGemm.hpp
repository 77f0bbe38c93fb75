// Packed SGEMM driver over the kernel table: C[M x N] (row stride ldc) = A[M x K] * B[K x N] + bias[row],
// activation fused into the last store. A is packed once (weights) into MR-row panels, B into
// NR-column panels (both k-major, zero-padded to whole panels).
#ifndef MNN_CPU_CPUGEMM_HPP
#define MNN_CPU_CPUGEMM_HPP

#include <stdint.h>
#include "CPUCoreFunctions.hpp"
#include "ThreadPool.hpp"

namespace MNN {

inline int64_t gemmPackedASize(const CPUCoreFunctions& f, int m, int k) {
    return (int64_t)((m + f.mr - 1) / f.mr) * f.mr * k;
}
inline int64_t gemmPackedBSize(const CPUCoreFunctions& f, int n, int k) {
    return (int64_t)((n + f.nr - 1) / f.nr) * f.nr * k;
}

/** packs rows [0, m) of A (row stride lda) */
void gemmPackA(const CPUCoreFunctions& f, const float* a, int64_t lda, int m, int k, float* packed);
/** packs B [k x n] (row stride ldb) */
void gemmPackB(const CPUCoreFunctions& f, const float* b, int64_t ldb, int n, int k, float* packed);

/**
 * C = packedA * packedB + bias. bias: (M rounded up to MR) values, or nullptr for zero bias only
 * when M is a multiple of MR... pass padded zeros instead. Splits the output tiles over the pool.
 */
void gemmRunPacked(const CPUCoreFunctions& f, int m, int n, int k, const float* packedA, const float* packedB,
                   const float* biasPadded, float* c, int64_t ldc, const GemmPost& post, ThreadPool* pool);

/**
 * Strassen-Winograd levels worth applying to an [m x k] x [k x n] product (0: the plain packed GEMM):
 * a level halves every dimension (all must be even) and replaces 8 half-size products by 7 plus 15
 * quadrant additions and per-product packing. It is taken while the multiply-adds saved, m n k / 8
 * (micro-kernel lanes), exceed kStrassenAddCost lanes per element the additions touch (they are
 * memory bound: about three memory operations per element against 16 multiply-add lanes a cycle).
 */
constexpr double kStrassenAddCost = 32.0;
int gemmStrassenLevels(int m, int n, int k, int maxLevels);
/** floats of scratch gemmStrassen needs (levels from gemmStrassenLevels, or forced by a test) */
int64_t gemmStrassenScratchFloats(const CPUCoreFunctions& f, int m, int n, int k, int levels);
/**
 * C[m x n] (row stride ldc) = A[m x k] (lda) * B[k x n] (ldb), row-major operands, through `levels`
 * Strassen-Winograd levels (m, n, k divisible by 2^levels) over the packed GEMM; C is overwritten.
 */
void gemmStrassen(const CPUCoreFunctions& f, int m, int n, int k, const float* a, int64_t lda, const float* b,
                  int64_t ldb, float* c, int64_t ldc, int levels, float* scratch, ThreadPool* pool);

}  // namespace MNN
#endif
