// N-input numpy broadcasting for reference kernels (Where, the variadic Mean op).
#ifndef MNN_CPU_CPUBROADCASTN_HPP
#define MNN_CPU_CPUBROADCASTN_HPP

#include <stdint.h>
#include <vector>
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {
namespace CPUUtils {

/**
 * calls f(outIndex, offsets) for every element of `out`; offsets[k] is the element offset in
 * input k, whose broadcast strides (as from broadcastStrides) are strides[k]
 */
template <typename F>
void forEachBroadcastN(const std::vector<int>& out, const std::vector<std::vector<int64_t>>& strides, F f) {
    const int rank = (int)out.size();
    const size_t n = strides.size();
    int64_t total = 1;
    for (auto d : out) {
        total *= d;
    }
    std::vector<int64_t> offs(n, 0);
    if (total == 0) {
        return;
    }
    std::vector<int> idx(rank, 0);
    for (int64_t o = 0; o < total; ++o) {
        f(o, offs.data());
        for (int d = rank - 1; d >= 0; --d) {
            idx[d]++;
            for (size_t k = 0; k < n; ++k) {
                offs[k] += strides[k][d];
            }
            if (idx[d] < out[d]) {
                break;
            }
            for (size_t k = 0; k < n; ++k) {
                offs[k] -= strides[k][d] * out[d];
            }
            idx[d] = 0;
        }
    }
}

} // namespace CPUUtils
} // namespace MNN
#endif
