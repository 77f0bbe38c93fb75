// ConvolutionPool as two Executions (the convolution's, then the pooling's) over an intermediate
// tensor: CPUConvolutionPool.cpp. The banded packed kernel is CPUConvolutionPacked.cpp's.
#ifndef MNN_CPU_CPUCONVOLUTIONPOOL_HPP
#define MNN_CPU_CPUCONVOLUTIONPOOL_HPP

#include <vector>
#include "core/Backend.hpp"
#include "shape/WindowGeometry.hpp"

namespace MNN {

/**
 * shapes mid as the convolution's output [N, M, OH, OW] for inputs X, W, [B]; false on a bad shape,
 * with the reason in *err (the caller reports it: one line per failure)
 */
bool shapeConvolutionPoolMid(const ConvAttrs& conv, const PoolAttrs& pool, const std::vector<Tensor*>& inputs,
                             Tensor* mid, std::string* err);

/**
 * Y = poolExec(convExec(X, W, B)) through mid (owned, shaped by shapeConvolutionPoolMid; packed or
 * plain as both Executions expect); takes ownership of all three, null (all freed) if one is null
 */
Execution* makeConvolutionPoolPair(Backend* backend, const ConvAttrs& conv, const PoolAttrs& pool, Tensor* mid,
                                   Execution* convExec, Execution* poolExec);

}  // namespace MNN
#endif
