// Internal tensor helpers: the description behind Tensor, shapes, types, layout conversion.
#ifndef MNN_CORE_TENSORUTILS_HPP
#define MNN_CORE_TENSORUTILS_HPP

#include <MNN/Tensor.hpp>
#include <stdint.h>
#include <string>
#include <vector>
#include "Schema.hpp"

namespace MNN {
class Backend;

struct Tensor::InsideDescribe {
    enum Usage { NORMAL = 0, INPUT = 1, OUTPUT = 2, CONSTANT = 3 };
    DimensionType dimType = CAFFE;
    /**
     * channels per block when dimType is CAFFE_C4: 4 for app tensors (NC4HW4); session tensors
     * the CPU backend keeps packed use its pack (16 on x86: NC16HW16). Padding lanes of the last
     * block hold unspecified values: kernels never let them reach a real channel.
     */
    int pack = 4;
    Usage usage = NORMAL;
    /** host memory was malloc'ed for this tensor and is freed with it */
    bool ownHost = false;
    /** backend whose memory this is (nullptr for plain host tensors) */
    Backend* backend = nullptr;
    /** the model's name of the tensor (empty for app tensors) */
    std::string name;
    /** index in the graph, -1 for tensors outside a graph */
    int index = -1;
    /** arena offset planned by the memory planner (-1 when none) */
    int64_t arenaOffset = -1;
    /**
     * set by the producer's onResize: at two threads, thread 1 writes the packed channel blocks
     * from this one on and thread 0 those before, at every position (0: not split so). A K-sliced
     * consumer splits its K there (KSplitJob), so each thread reads what its own core wrote
     */
    int splitBlock = 0;
};

namespace TensorUtils {
inline Tensor::InsideDescribe* describe(const Tensor* t) {
    return t->describe();
}
/** sets rank and extents (in the tensor's layout order) and recomputes strides */
void setShape(Tensor* t, const std::vector<int>& dims);
/** recomputes row-major strides from extents */
void setLinearLayout(Tensor* t);
std::vector<int> shape(const Tensor* t);
/** logical element count as int64; -1 if a dim is negative */
int64_t elementCount(const Tensor* t);
/** bytes needed for the data in the tensor's layout (C4 packing included) */
int64_t byteSize(const Tensor* t);
/** product of dims with overflow checking; returns false on overflow or negative dims */
bool checkedProduct(const std::vector<int>& dims, int64_t limit, int64_t* out);

halide_type_t typeOf(Schema::DataType t);
Schema::DataType dataTypeOf(halide_type_t t);
const char* typeName(halide_type_t t);
/** "1x3x224x224" */
std::string shapeString(const Tensor* t);
std::string shapeString(const std::vector<int>& dims);

/** copies host data between tensors of the same logical shape and type, converting layout */
bool copyHostWithLayout(const Tensor* src, Tensor* dst);
/** frees owned host memory and allocates `bytes` (zeroed) */
bool allocHost(Tensor* t);
void freeHost(Tensor* t);

float fp16ToFloat(uint16_t h);
uint16_t floatToFp16(float f);
float bf16ToFloat(uint16_t h);
} // namespace TensorUtils
} // namespace MNN

#endif
