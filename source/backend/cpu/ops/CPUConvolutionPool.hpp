// ConvolutionPool as two Executions (the convolution's, then the pooling's) over an intermediate
// tensor: CPUConvolutionPool.cpp. The banded packed kernel is CPUConvolutionPacked.cpp's.
#ifndef MNN_CPU_CPUCONVOLUTIONPOOL_HPP
#define MNN_CPU_CPUCONVOLUTIONPOOL_HPP

#include <vector>
#include "core/Backend.hpp"
#include "shape/WindowGeometry.hpp"

namespace MNN {

/** shapes mid as the convolution's output [N, M, OH, OW] for inputs X, W, [B]; false (logged) on a bad shape */
bool shapeConvolutionPoolMid(const ConvAttrs& conv, const PoolAttrs& pool, const std::vector<Tensor*>& inputs,
                             Tensor* mid);

/**
 * Y = poolExec(convExec(X, W, B)) through mid (owned, shaped by shapeConvolutionPoolMid; packed or
 * plain as both Executions expect); takes ownership of all three, null (all freed) if one is null
 */
Execution* makeConvolutionPoolPair(Backend* backend, const ConvAttrs& conv, const PoolAttrs& pool, Tensor* mid,
                                   Execution* convExec, Execution* poolExec);

}  // namespace MNN
#endif
