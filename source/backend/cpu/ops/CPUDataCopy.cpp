#include "CPUDataCopy.hpp"
#include <string.h>

namespace MNN {
namespace DataCopy {

template <typename T>
static void gatherTyped(T* dst, const T* src, const std::vector<int>& dims,
                        const std::vector<std::vector<int64_t>>& tables, T fill) {
    const int rank = (int)dims.size();
    if (rank == 0) {
        dst[0] = src[0];
        return;
    }
    for (auto d : dims) {
        if (d == 0) {
            return;
        }
    }
    // partial[d]: source offset of the outer coordinates 0..d-1 (-1: no source)
    // on the stack for tensor ranks (no allocation per run); a deeper view falls back to the heap
    int64_t partialStack[MNN_MAX_TENSOR_DIM + 1] = {0};
    int idxStack[MNN_MAX_TENSOR_DIM] = {0};
    std::vector<int64_t> partialHeap;
    std::vector<int> idxHeap;
    int64_t* partial = partialStack;
    int* idx = idxStack;
    if (rank > MNN_MAX_TENSOR_DIM) {
        partialHeap.assign(rank + 1, 0);
        idxHeap.assign(rank, 0);
        partial = partialHeap.data();
        idx = idxHeap.data();
    }
    for (int d = 0; d < rank - 1; ++d) {
        int64_t t = tables[d][0];
        partial[d + 1] = (partial[d] < 0 || t < 0) ? -1 : partial[d] + t;
    }
    const int inner = dims[rank - 1];
    const int64_t* last = tables[rank - 1].data();
    // the innermost axis read in order (Transpose / Slice keeping the last axis): one block copy
    bool contiguous = last[0] >= 0;
    for (int k = 1; k < inner && contiguous; ++k) {
        contiguous = last[k] == last[0] + k;
    }
    int64_t o = 0;
    while (true) {
        const int64_t base = partial[rank - 1];
        if (base < 0) {
            for (int k = 0; k < inner; ++k) {
                dst[o + k] = fill;
            }
        } else if (contiguous) {
            ::memcpy(dst + o, src + base + last[0], sizeof(T) * (size_t)inner);
        } else {
            for (int k = 0; k < inner; ++k) {
                dst[o + k] = last[k] < 0 ? fill : src[base + last[k]];
            }
        }
        o += inner;
        int d = rank - 2;
        for (; d >= 0; --d) {
            if (++idx[d] < dims[d]) {
                break;
            }
            idx[d] = 0;
        }
        if (d < 0) {
            return;
        }
        for (int e = d; e < rank - 1; ++e) {
            int64_t t = tables[e][idx[e]];
            partial[e + 1] = (partial[e] < 0 || t < 0) ? -1 : partial[e] + t;
        }
    }
}

template <typename T>
static T fillValue(const uint8_t* fill) {
    T v;
    if (fill) {
        ::memcpy(&v, fill, sizeof(T));
    } else {
        ::memset(&v, 0, sizeof(T));
    }
    return v;
}

void gatherAxes(uint8_t* dst, const uint8_t* src, const std::vector<int>& dims,
                const std::vector<std::vector<int64_t>>& tables, int elementSize, const uint8_t* fill) {
    switch (elementSize) {
        case 1:
            gatherTyped<uint8_t>(dst, src, dims, tables, fillValue<uint8_t>(fill));
            return;
        case 2:
            gatherTyped<uint16_t>((uint16_t*)dst, (const uint16_t*)src, dims, tables, fillValue<uint16_t>(fill));
            return;
        case 4:
            gatherTyped<uint32_t>((uint32_t*)dst, (const uint32_t*)src, dims, tables, fillValue<uint32_t>(fill));
            return;
        default:
            gatherTyped<uint64_t>((uint64_t*)dst, (const uint64_t*)src, dims, tables, fillValue<uint64_t>(fill));
            return;
    }
}

std::vector<std::vector<int64_t>> stridedTables(const std::vector<int>& dims, const std::vector<int64_t>& start,
                                                const std::vector<int64_t>& step, const std::vector<int64_t>& stride) {
    std::vector<std::vector<int64_t>> tables(dims.size());
    for (size_t d = 0; d < dims.size(); ++d) {
        tables[d].resize(dims[d]);
        for (int i = 0; i < dims[d]; ++i) {
            tables[d][i] = (start[d] + (int64_t)i * step[d]) * stride[d];
        }
    }
    return tables;
}

void transpose(uint8_t* dst, const uint8_t* src, const std::vector<int>& srcDims, const std::vector<int>& perm,
               int elementSize) {
    auto srcStride = CPUUtils::strides(srcDims);
    std::vector<int> outDims(perm.size());
    std::vector<int64_t> start(perm.size(), 0), step(perm.size(), 1), stride(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) {
        outDims[i] = srcDims[perm[i]];
        stride[i] = srcStride[perm[i]];
    }
    gatherAxes(dst, src, outDims, stridedTables(outDims, start, step, stride), elementSize, nullptr);
}

}  // namespace DataCopy
}  // namespace MNN
