// Helpers shared by the CPU reference kernels (source/backend/cpu/ops/*).
#ifndef MNN_CPU_CPUOPUTILS_HPP
#define MNN_CPU_CPUOPUTILS_HPP

#include <stdint.h>
#include <vector>
#include "core/Backend.hpp"
#include "core/Macro.hpp"
#include "core/Registry.hpp"
#include "core/TensorUtils.hpp"
#include "backend/cpu/CPUCoreFunctions.hpp"
#include "backend/cpu/CPUMemory.hpp"
#include "shape/WindowGeometry.hpp"

namespace MNN {
namespace CPUUtils {

/**
 * the store-time activation of a convolution's fused activation: ReLU / Clip in the register
 * kernels (act 1 / 2), SiLU / HardSwish through the table's unary kernel (act 3; `unary` is left
 * for the caller, which knows its table); SiLU as SILU_FAST below Precision_High (backend: the
 * CPUBackend the convolution runs on)
 */
GemmPost gemmPostFor(const ConvAttrs& attrs, const Backend* backend);
/** whether b (a CPUBackend) runs at Precision_High */
bool highPrecision(const Backend* b);

/**
 * Float weights below this size stay float at Precision_Normal: half weights pay only where a GEMV
 * streams its weights from memory (classifiers of 4 MB and more), and the small GEMVs of
 * squeeze-excitation gates scale whole feature maps, so their 2^-11 rounding reached 1.6e-3 of the
 * output on PP-OCRv4 recognition against ONNX Runtime (2026-12-07; float: 7e-6). Precision_Low
 * keeps every GEMV's weights as half (mobilenet_v3_large: 3.9% faster at one thread than Normal).
 */
constexpr size_t kHalfWeightsMinBytes = (size_t)4 << 20;

/** the smallest weights kept as half on this backend: 0 at Precision_Low, else kHalfWeightsMinBytes */
size_t halfWeightsMinBytes(const Backend* b);

/**
 * packed weights as IEEE half (PackedConvTile::wHalf), round to nearest; false (h empty) when a
 * weight is outside the half range or NaN, or the weights are under minBytes: the caller keeps the
 * float weights
 */
bool halfWeights(const float* w, size_t n, size_t minBytes, LargeVector<uint16_t>* h);

/** element strides of `in` (right-aligned) as seen from an output of shape `out`; 0 where broadcast */
std::vector<int64_t> broadcastStrides(const std::vector<int>& in, const std::vector<int>& out);

/** calls f(outIndex, offsetA, offsetB) for every element of `out`, with broadcast offsets */
template <typename F>
void forEachBroadcast2(const std::vector<int>& out, const std::vector<int64_t>& sa, const std::vector<int64_t>& sb,
                       F f) {
    const int rank = (int)out.size();
    int64_t total = 1;
    for (auto d : out) {
        total *= d;
    }
    if (total == 0) {
        return;
    }
    if (rank == 0) {
        f(0, 0, 0);
        return;
    }
    int idx[MNN_MAX_TENSOR_DIM] = {0};
    int64_t oa = 0, ob = 0;
    const int inner = out[rank - 1];
    const int64_t ia = sa[rank - 1], ib = sb[rank - 1];
    for (int64_t o = 0; o < total; o += inner) {
        for (int k = 0; k < inner; ++k) {
            f(o + k, oa + k * ia, ob + k * ib);
        }
        // advance the outer index
        for (int d = rank - 2; d >= 0; --d) {
            idx[d]++;
            oa += sa[d];
            ob += sb[d];
            if (idx[d] < out[d]) {
                break;
            }
            oa -= sa[d] * out[d];
            ob -= sb[d] * out[d];
            idx[d] = 0;
        }
    }
}

/** row-major strides of a shape */
std::vector<int64_t> strides(const std::vector<int>& shape);

inline bool isFloat(const Tensor* t) {
    return t->getType().code == halide_type_float && t->getType().bits == 32;
}

/** reads element i of any numeric tensor as double */
double readAsDouble(const Tensor* t, int64_t i);
/** writes element i of any numeric tensor from double (with C conversion rules) */
void writeFromDouble(Tensor* t, int64_t i, double v);

/** whether every present input from `from` on is a constant (its values are known at onResize) */
bool constantsFrom(const std::vector<Tensor*>& inputs, size_t from);

/**
 * A copy of the bytes of a kernel's parameter inputs (inputs[from..], values that may be computed by
 * earlier ops), so that a plan built from their values at execute is rebuilt only when they change.
 * prepare() in onResize sizes the copy; changed() in onExecute compares and updates it without
 * allocating.
 */
class ParamBytes {
public:
    void prepare(const std::vector<Tensor*>& inputs, size_t from);
    /** true the first time after prepare() and whenever a byte differs from the last call */
    bool changed(const std::vector<Tensor*>& inputs);

private:
    size_t mFrom = 0;
    bool mValid = false;
    std::vector<uint8_t> mBytes;
};

/** an Execution whose compute is a lambda-free function pointer plus the op's copied params */
inline const char* opName(const Schema::Op* op) {
    return (op && op->name()) ? op->name()->c_str() : "";
}

} // namespace CPUUtils
} // namespace MNN
#endif
