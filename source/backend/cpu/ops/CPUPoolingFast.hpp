// Fast 2-D Max / Average pooling (float, no Indices output).
#ifndef MNN_CPU_CPUPOOLINGFAST_HPP
#define MNN_CPU_CPUPOOLINGFAST_HPP

#include "backend/cpu/CPUOpUtils.hpp"
#include "shape/WindowGeometry.hpp"

namespace MNN {

/** the fast Execution for 2-D float MAXPOOL / AVERAGEPOOL with one output, else nullptr */
Execution* createFastPooling(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                             const PoolAttrs& attrs, Backend* backend);
/** the plain Pooling Execution for attrs: the fast one where it applies, else the reference (CPUPooling.cpp) */
Execution* createPlainPooling(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                              const PoolAttrs& attrs, Backend* backend);

} // namespace MNN
#endif
