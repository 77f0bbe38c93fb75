// Helpers shared by the shape functions (one file per op in this folder).
#ifndef MNN_SHAPE_SHAPEUTILS_HPP
#define MNN_SHAPE_SHAPEUTILS_HPP

#include <stdarg.h>
#include <stdint.h>
#include <string>
#include <vector>
#include "core/Macro.hpp"
#include "core/Registry.hpp"
#include "core/TensorUtils.hpp"

namespace MNN {
namespace ShapeUtils {

/** logs "op NAME (Type): message" and returns `code` */
ErrorCode error(const Schema::Op* op, ErrorCode code, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

/** numpy broadcasting of two shapes; false if incompatible */
bool broadcast(const std::vector<int>& a, const std::vector<int>& b, std::vector<int>& out);
/** axis in [-rank, rank) -> [0, rank); -1 when out of range */
int normalizeAxis(int axis, int rank);
/** sets dims (CAFFE layout) and type of an output */
void setOutput(Tensor* t, const std::vector<int>& dims, halide_type_t type);
inline void setOutputLike(Tensor* t, const Tensor* like) {
    setOutput(t, TensorUtils::shape(like), like->getType());
}
/** reads an int/float tensor's values as int64 (host memory must hold values) */
std::vector<int64_t> readInts(const Tensor* t);
std::vector<float> readFloats(const Tensor* t);
/** element i of an int/float tensor as readInts / readFloats convert it, without allocating */
int64_t readInt(const Tensor* t, int64_t i);
float readFloat(const Tensor* t, int64_t i);
/** number of present (non-null) inputs at the front */
inline bool has(const std::vector<Tensor*>& inputs, size_t i) {
    return inputs.size() > i && inputs[i] != nullptr;
}
inline const char* name(const Schema::Op* op) {
    return (op && op->name()) ? op->name()->c_str() : "";
}
/** clamps an int64 to int (dims are int); false if out of int range or negative */
bool toDim(int64_t v, int* out);

} // namespace ShapeUtils
} // namespace MNN
#endif
