// Parameter computations shared by the data-movement shape functions and their CPU kernels
// (Slice, Pad, Split...). The shape function validates and sets the output dims; the kernel
// recomputes the same parameters from the same values at execute time (the values of a
// computed input are only in memory then), and checks they still match the output.
#ifndef MNN_SHAPE_SHAPEDATAOPS_HPP
#define MNN_SHAPE_SHAPEDATAOPS_HPP

#include <stdint.h>
#include <string>
#include <vector>
#include "ShapeUtils.hpp"

namespace MNN {
namespace DataOps {

/** per-axis start and step of a Slice, and the output dims */
struct SliceRange {
    std::vector<int64_t> start;  // per input axis
    std::vector<int64_t> step;   // per input axis
    std::vector<int> outDims;
};
/**
 * ONNX Slice: starts/ends/axes/steps as int64 (axes/steps may be empty = defaults).
 * Returns "" on success, else a message naming the problem.
 */
std::string computeSlice(const std::vector<int>& dims, const std::vector<int64_t>& starts,
                         const std::vector<int64_t>& ends, const std::vector<int64_t>& axes,
                         const std::vector<int64_t>& steps, SliceRange* out);

/** per-axis pads of a Pad after crop: source range [lo, lo+len) padded by before/after */
struct PadRange {
    std::vector<int64_t> lo;      // first kept source index (negative begin pad crops)
    std::vector<int64_t> len;     // kept source length
    std::vector<int64_t> before;  // positive pad in front
    std::vector<int> outDims;
};
/** ONNX Pad: pads = [begins..., ends...] for `axes` (empty = all axes) */
std::string computePad(const std::vector<int>& dims, const std::vector<int64_t>& pads,
                       const std::vector<int64_t>& axes, int mode, PadRange* out);

/** the permutation of a Transpose: TransposeParam.perm, default reversed; false if invalid */
bool transposePerm(const Schema::Op* op, int rank, std::vector<int>* perm);

/** Pad's pads: input 1, else PadParam.pads */
std::vector<int64_t> padsOf(const Schema::Op* op, const std::vector<Tensor*>& inputs);

/** Shape's [start, end) for a rank-`rank` input (ShapeParam, clamped) */
void shapeOpRange(const Schema::Op* op, int rank, int* start, int* end);
/** number of Range elements from the three scalars; "" or an error message */
std::string rangeCount(const Tensor* start, const Tensor* limit, const Tensor* delta, int64_t* count);

/** whether element i of a numeric tensor is non-zero (NaN counts as non-zero) */
inline bool isNonZero(const Tensor* t, int64_t i) {
    auto type = t->getType();
    if (type.code == halide_type_float) {
        return type.bits == 64 ? t->host<double>()[i] != 0.0 : t->host<float>()[i] != 0.0f;
    }
    switch (type.bytes()) {
        case 1: return t->host<uint8_t>()[i] != 0;
        case 2: return t->host<uint16_t>()[i] != 0;
        case 4: return t->host<uint32_t>()[i] != 0;
        default: return t->host<uint64_t>()[i] != 0;
    }
}

/** CenterCropPad as begin/end pads over all axes (negative = centered crop) */
std::string centerCropPads(const std::vector<int>& dims, const std::vector<int64_t>& shape,
                           const std::vector<int64_t>& axes, std::vector<int64_t>* pads);

/** AxisParam.axes as int64 (empty when absent) */
std::vector<int64_t> paramAxes(const Schema::Op* op);

/** reads input i's values as int64 when present (else empty) */
inline std::vector<int64_t> valuesOf(const std::vector<Tensor*>& inputs, size_t i) {
    if (!ShapeUtils::has(inputs, i)) {
        return {};
    }
    return ShapeUtils::readInts(inputs[i]);
}

/** integer or bool type that can hold indices / shape values */
inline bool isIntegerType(halide_type_t t) {
    return t.code == halide_type_int || t.code == halide_type_uint;
}

/** normalises a list of axes against `rank`; false on out-of-range or duplicates */
bool normalizeAxes(const std::vector<int64_t>& axes, int rank, std::vector<int>* out);

} // namespace DataOps
} // namespace MNN
#endif
