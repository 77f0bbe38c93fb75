// Fast MatMul / Gemm with a constant 2-D weight (the packed SGEMM with the weights packed once).
#ifndef MNN_CPU_CPUMATMULFAST_HPP
#define MNN_CPU_CPUMATMULFAST_HPP

#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {

struct LinearAttrs {
    float alpha = 1.0f, beta = 1.0f;
    bool transA = false, transB = false;
    bool gemm = false;  // Gemm (A, B, C?) rather than MatMul (A, B)
    Schema::FusedActivation activation = Schema::FusedActivation::NONE;
    float clipMin = 0.0f, clipMax = 6.0f;
};

/**
 * MatMul of two float inputs of rank >= 2 (B not a constant 2-D): batched packed GEMM. Otherwise the fast
 * Execution when B is a constant float 2-D tensor, A is float (MatMul: rank >= 2; Gemm: no
 * transA) and Gemm's C is absent or a constant broadcasting along rows ([N], [1, N], [1], []);
 * else nullptr. env MNN_CONV_ALGO=reference disables it too.
 */
Execution* createFastLinear(const std::vector<Tensor*>& inputs, const LinearAttrs& attrs, Backend* backend);

} // namespace MNN
#endif
