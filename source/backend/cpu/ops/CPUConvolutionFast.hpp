// Fast 2-D Convolution (constant weights): 1x1 / im2col + packed SGEMM, direct depthwise.
#ifndef MNN_CPU_CPUCONVOLUTIONFAST_HPP
#define MNN_CPU_CPUCONVOLUTIONFAST_HPP

#include "backend/cpu/CPUOpUtils.hpp"
#include "shape/WindowGeometry.hpp"

namespace MNN {

/**
 * The fast Execution when the op is a 2-D convolution with constant float weights (and constant or
 * absent bias), else nullptr (the caller uses the reference). env MNN_CONV_ALGO=reference|gemm
 * forces a choice (reference: always nullptr).
 */
Execution* createFastConvolution(const std::vector<Tensor*>& inputs, const ConvAttrs& attrs, Backend* backend);

/** the plain-layout Convolution Execution for attrs: the fast one where it applies, else the reference */
Execution* createPlainConvolution(const std::vector<Tensor*>& inputs, const ConvAttrs& attrs, Backend* backend);

/**
 * For a Convolution with an input scale S (a fourth input): inner (made for inputs X, W, B) run on
 * X * S, scaled into scratch of X's shape and layout (CPUConvolutionInputScale.cpp); null for null
 */
Execution* wrapInputScale(Execution* inner, Backend* backend);

} // namespace MNN
#endif
