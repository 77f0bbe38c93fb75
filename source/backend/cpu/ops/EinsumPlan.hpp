// Einsum equation parsing shared by the shape function and the reference kernel.
#ifndef MNN_CPU_EINSUMPLAN_HPP
#define MNN_CPU_EINSUMPLAN_HPP

#include <stdint.h>
#include <string>
#include <vector>

namespace MNN {

/**
 * The loop nest of one einsum: loop labels 0..numOut-1 are the output dims in output order, the
 * rest are summed. inputStrides[k][l] is input k's element stride for loop label l (0 when the
 * label is absent or broadcast; repeated labels in one term add their strides: a diagonal).
 */
struct EinsumPlan {
    std::vector<int> labelDims;
    int numOut = 0;
    std::vector<std::vector<int64_t>> inputStrides;
};

/**
 * numpy einsum semantics: letters a-z A-Z, at most one "..." per term, explicit "->" output or
 * implicit output (ellipsis dims, then labels used once, in ASCII order); size-1 dims broadcast.
 * Returns false with a message in *err for a malformed equation or mismatched shapes.
 */
bool buildEinsumPlan(const std::string& equation, const std::vector<std::vector<int>>& shapes, EinsumPlan* plan,
                     std::string* err);

} // namespace MNN
#endif
