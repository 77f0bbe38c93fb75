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

} // namespace MNN
#endif
