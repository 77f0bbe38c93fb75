// MNN::Tensor: an n-dimensional array on the host or on a device.
#ifndef MNN_TENSOR_HPP
#define MNN_TENSOR_HPP

#include <vector>
#include <MNN/HalideRuntime.h>
#include <MNN/MNNDefine.h>

#define MNN_MAX_TENSOR_DIM 8

namespace MNN {

/**
 * A tensor: shape, element type, layout and memory. Host tensors own host memory (or wrap the
 * caller's); session tensors are owned by their session and live in its pooled arena.
 *
 * Layouts (DimensionType):
 *  - TENSORFLOW: NHWC; for 4-D tensors the dims are stored as N, H, W, C.
 *  - CAFFE: NCHW, or plain row-major for ranks other than 4. Session inputs / outputs of
 *    models converted from ONNX use it.
 *  - CAFFE_C4: NC4HW4, channels packed by 4 (dims are reported in NCHW order).
 */
class MNN_PUBLIC Tensor {
public:
    struct InsideDescribe;

    enum DimensionType {
        TENSORFLOW,
        CAFFE,
        CAFFE_C4
    };

    enum HandleDataType {
        HANDLE_NONE = 0,
        HANDLE_STRING = 1
    };

    enum MapType {
        MAP_TENSOR_WRITE = 0,
        MAP_TENSOR_READ = 1
    };

    /** an empty tensor of `dimSize` dims (extents 0), CAFFE layout, float32, no memory */
    Tensor(int dimSize = 4, DimensionType type = CAFFE);
    /**
     * a host tensor with the shape of `tensor`, in layout `type`; dims are reordered when the
     * layouts differ (e.g. NCHW -> NHWC for 4-D); allocates host memory when allocMemory.
     */
    Tensor(const Tensor* tensor, DimensionType type = CAFFE, bool allocMemory = true);
    ~Tensor();

    Tensor(const Tensor&) = delete;
    Tensor& operator=(const Tensor&) = delete;

    /** a tensor without host memory (memory is acquired by a backend) */
    static Tensor* createDevice(const std::vector<int>& shape, halide_type_t type, DimensionType dimType = TENSORFLOW);
    template <typename T>
    static Tensor* createDevice(const std::vector<int>& shape, DimensionType dimType = TENSORFLOW) {
        return createDevice(shape, halide_type_of<T>(), dimType);
    }

    /** a host tensor; copies `data` when non-null. nullptr for invalid shapes (negative, overflow). */
    static Tensor* create(const std::vector<int>& shape, halide_type_t type, void* data = nullptr,
                          DimensionType dimType = TENSORFLOW);
    template <typename T>
    static Tensor* create(const std::vector<int>& shape, void* data = nullptr, DimensionType dimType = TENSORFLOW) {
        return create(shape, halide_type_of<T>(), data, dimType);
    }

    /** a copy of `src`'s shape and layout; with deepCopy the data too (host memory) */
    static Tensor* clone(const Tensor* src, bool deepCopy = false);
    static void destroy(Tensor* tensor);

    /** copies (and converts layout / device) from a host tensor of the same shape */
    bool copyFromHostTensor(const Tensor* hostTensor);
    /** copies (and converts layout / device) into a host tensor of the same shape */
    bool copyToHostTensor(Tensor* hostTensor) const;

    /** a host tensor holding a copy of a device tensor (layout kept) */
    static Tensor* createHostTensorFromDevice(const Tensor* deviceTensor, bool copyData = true);

    const halide_buffer_t& buffer() const {
        return mBuffer;
    }
    halide_buffer_t& buffer() {
        return mBuffer;
    }

    DimensionType getDimensionType() const;
    HandleDataType getHandleDataType() const;
    void setType(int type);  // an MNN::Schema DataType value
    inline halide_type_t getType() const {
        return mBuffer.type;
    }

    template <typename T>
    T* host() const {
        return (T*)mBuffer.host;
    }
    uint64_t deviceId() const {
        return mBuffer.device;
    }

    int dimensions() const {
        return mBuffer.dimensions;
    }
    /** dims in the tensor's own layout order (NHWC for TENSORFLOW 4-D) */
    std::vector<int> shape() const;
    /** bytes of the data (packed channels included for CAFFE_C4) */
    int size() const;
    size_t usize() const;
    /** number of logical elements */
    int elementSize() const;

    inline int width() const {
        if (getDimensionType() == TENSORFLOW) {
            return mBuffer.dimensions > 2 ? mBuffer.dim[2].extent : 1;
        }
        return mBuffer.dimensions > 3 ? mBuffer.dim[3].extent : 1;
    }
    inline int height() const {
        if (getDimensionType() == TENSORFLOW) {
            return mBuffer.dimensions > 1 ? mBuffer.dim[1].extent : 1;
        }
        return mBuffer.dimensions > 2 ? mBuffer.dim[2].extent : 1;
    }
    inline int channel() const {
        if (getDimensionType() == TENSORFLOW) {
            return mBuffer.dimensions > 3 ? mBuffer.dim[3].extent : 1;
        }
        return mBuffer.dimensions > 1 ? mBuffer.dim[1].extent : 1;
    }
    inline int batch() const {
        return mBuffer.dimensions > 0 ? mBuffer.dim[0].extent : 1;
    }

    inline int stride(int index) const {
        return mBuffer.dim[index].stride;
    }
    inline int length(int index) const {
        return mBuffer.dim[index].extent;
    }
    inline void setStride(int index, int stride) {
        mBuffer.dim[index].stride = stride;
    }
    inline void setLength(int index, int length) {
        mBuffer.dim[index].extent = length;
    }

    /** writes the values to stdout */
    void print() const;
    void printShape() const;

    /** host access to a device tensor: returns a host pointer valid until unmap */
    void* map(MapType mtype, DimensionType dtype);
    void unmap(MapType mtype, DimensionType dtype, void* mapPtr);
    /** waits for the device to finish work on this tensor; returns 0 */
    int wait(MapType mtype, bool finish);

    /** internal description: owned by the library */
    InsideDescribe* describe() const {
        return mDescribe;
    }

private:
    halide_buffer_t mBuffer;
    halide_dimension_t mDims[MNN_MAX_TENSOR_DIM];
    InsideDescribe* mDescribe;
};

} // namespace MNN

#endif
