// N-input numpy broadcasting for reference kernels (Where, the variadic Mean op).
#ifndef MNN_CPU_CPUBROADCASTN_HPP
#define MNN_CPU_CPUBROADCASTN_HPP

#include <stdint.h>
#include <algorithm>
#include <vector>
#include "backend/cpu/CPUOpUtils.hpp"

namespace MNN {
namespace CPUUtils {

/**
 * The walk over one broadcast output: prepare() (onResize) takes the shapes and sizes every table,
 * forEach() (onExecute) calls f(outIndex, offsets) for every output element without allocating;
 * offsets[k] is the element offset in input k.
 */
class BroadcastNPlan {
public:
    void prepare(const std::vector<Tensor*>& inputs, const Tensor* output) {
        mOut = TensorUtils::shape(output);
        mStrides.clear();
        for (auto in : inputs) {
            mStrides.push_back(broadcastStrides(TensorUtils::shape(in), mOut));
        }
        mOffs.assign(inputs.size(), 0);
        mIdx.assign(mOut.size(), 0);
    }
    template <typename F>
    void forEach(F f) {
        const int rank = (int)mOut.size();
        const size_t n = mStrides.size();
        int64_t total = 1;
        for (auto d : mOut) {
            total *= d;
        }
        std::fill(mOffs.begin(), mOffs.end(), (int64_t)0);
        if (total == 0) {
            return;
        }
        std::fill(mIdx.begin(), mIdx.end(), 0);
        int64_t* offs = mOffs.data();
        int* idx = mIdx.data();
        for (int64_t o = 0; o < total; ++o) {
            f(o, (const int64_t*)offs);
            for (int d = rank - 1; d >= 0; --d) {
                idx[d]++;
                for (size_t k = 0; k < n; ++k) {
                    offs[k] += mStrides[k][d];
                }
                if (idx[d] < mOut[d]) {
                    break;
                }
                for (size_t k = 0; k < n; ++k) {
                    offs[k] -= mStrides[k][d] * mOut[d];
                }
                idx[d] = 0;
            }
        }
    }

private:
    std::vector<int> mOut;
    std::vector<std::vector<int64_t>> mStrides;
    std::vector<int64_t> mOffs;
    std::vector<int> mIdx;
};

} // namespace CPUUtils
} // namespace MNN
#endif
