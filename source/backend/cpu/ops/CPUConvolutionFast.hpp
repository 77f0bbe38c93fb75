// Fast 2-D Convolution (constant weights): 1x1 / im2col + packed SGEMM, direct depthwise.
#ifndef MNN_CPU_CPUCONVOLUTIONFAST_HPP
#define MNN_CPU_CPUCONVOLUTIONFAST_HPP

#include <functional>
#include "backend/cpu/CPUCoreFunctions.hpp"
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
 * For a Convolution with an input scale S (input 3): inner (made for inputs X, W, B) run on X * S,
 * scaled into scratch of X's shape and layout (CPUConvolutionExtraInputs.cpp); null for null
 */
Execution* wrapInputScale(Execution* inner, Backend* backend);
/** For a Convolution with a residual R (input 4): inner (made without the activation), then y = act(y + R) */
Execution* wrapResidual(Execution* inner, const ConvAttrs& attrs, Backend* backend);
/** y = act(y + r) for n floats (r null: act only; post null: the sum only), with the table's kernels */
void addResidualRow(const CPUCoreFunctions& f, float* y, const float* r, int64_t n, const GemmPost* post);
/** makes a convolution Execution for inputs X, W, [B] (and attrs) */
typedef std::function<Execution*(const std::vector<Tensor*>& inputs, const ConvAttrs& attrs)> ConvCreator;
/**
 * base's Execution for X, W, B inside the wrappers that inputs S (3) and R (4) need (R outermost);
 * just base's where neither is there
 */
Execution* createWithExtraInputs(const std::vector<Tensor*>& inputs, const ConvAttrs& attrs, Backend* backend,
                                 const ConvCreator& base);

}  // namespace MNN
#endif
