#include <MNN/Tensor.hpp>
#include <stdlib.h>
#include <string.h>
#include "Backend.hpp"
#include "Macro.hpp"
#include "TensorUtils.hpp"

namespace MNN {

Tensor::Tensor(int dimSize, DimensionType type) {
    ::memset(&mBuffer, 0, sizeof(mBuffer));
    mDescribe = new InsideDescribe;
    mDescribe->dimType = type;
    mBuffer.dim = mDims;
    mBuffer.type = halide_type_of<float>();
    mBuffer.dimensions = dimSize > MNN_MAX_TENSOR_DIM ? MNN_MAX_TENSOR_DIM : (dimSize < 0 ? 0 : dimSize);
    for (int i = 0; i < MNN_MAX_TENSOR_DIM; ++i) {
        mDims[i] = halide_dimension_t();
    }
}

static std::vector<int> reorderDims(const Tensor* src, Tensor::DimensionType to) {
    auto s = TensorUtils::shape(src);
    auto from = src->getDimensionType();
    bool fromNHWC = from == Tensor::TENSORFLOW;
    bool toNHWC = to == Tensor::TENSORFLOW;
    if (s.size() < 3 || fromNHWC == toNHWC) {
        return s;
    }
    std::vector<int> r(s.size());
    if (toNHWC) {  // NC... -> N...C
        r[0] = s[0];
        for (size_t i = 2; i < s.size(); ++i) {
            r[i - 1] = s[i];
        }
        r.back() = s[1];
    } else {  // N...C -> NC...
        r[0] = s[0];
        r[1] = s.back();
        for (size_t i = 1; i + 1 < s.size(); ++i) {
            r[i + 1] = s[i];
        }
    }
    return r;
}

Tensor::Tensor(const Tensor* tensor, DimensionType type, bool allocMemory) : Tensor(0, type) {
    mBuffer.type = tensor->getType();
    TensorUtils::setShape(this, reorderDims(tensor, type));
    if (allocMemory) {
        TensorUtils::allocHost(this);
    }
}

Tensor::~Tensor() {
    TensorUtils::freeHost(this);
    delete mDescribe;
}

static bool validShape(const std::vector<int>& shape, halide_type_t type) {
    if (shape.size() > MNN_MAX_TENSOR_DIM) {
        MNN_ERROR("Tensor::create: rank %d is over the limit of %d\n", (int)shape.size(), MNN_MAX_TENSOR_DIM);
        return false;
    }
    int64_t n = 0;
    if (!TensorUtils::checkedProduct(shape, ((int64_t)1 << 40) / (type.bytes() > 0 ? type.bytes() : 1), &n)) {
        MNN_ERROR("Tensor::create: invalid shape %s (negative or too large)\n", TensorUtils::shapeString(shape).c_str());
        return false;
    }
    return true;
}

Tensor* Tensor::createDevice(const std::vector<int>& shape, halide_type_t type, DimensionType dimType) {
    if (!validShape(shape, type)) {
        return nullptr;
    }
    auto t = new Tensor((int)shape.size(), dimType);
    t->mBuffer.type = type;
    TensorUtils::setShape(t, shape);
    return t;
}

Tensor* Tensor::create(const std::vector<int>& shape, halide_type_t type, void* data, DimensionType dimType) {
    auto t = createDevice(shape, type, dimType);
    if (!t) {
        return nullptr;
    }
    if (!TensorUtils::allocHost(t)) {
        delete t;
        return nullptr;
    }
    if (data) {
        ::memcpy(t->mBuffer.host, data, (size_t)TensorUtils::byteSize(t));
    }
    return t;
}

Tensor* Tensor::clone(const Tensor* src, bool deepCopy) {
    auto t = new Tensor(src, src->getDimensionType(), true);
    if (deepCopy && src->host<void>() && t->host<void>()) {
        ::memcpy(t->host<void>(), src->host<void>(), (size_t)TensorUtils::byteSize(src));
    }
    return t;
}

void Tensor::destroy(Tensor* tensor) {
    delete tensor;
}

bool Tensor::copyFromHostTensor(const Tensor* hostTensor) {
    if (!hostTensor) {
        return false;
    }
    auto bn = mDescribe->backend;
    if (bn && mBuffer.device != 0) {
        return bn->onCopyBuffer(hostTensor, this);
    }
    return TensorUtils::copyHostWithLayout(hostTensor, this);
}

bool Tensor::copyToHostTensor(Tensor* hostTensor) const {
    if (!hostTensor) {
        return false;
    }
    auto bn = mDescribe->backend;
    if (bn && mBuffer.device != 0) {
        return bn->onCopyBuffer(this, hostTensor);
    }
    return TensorUtils::copyHostWithLayout(this, hostTensor);
}

Tensor* Tensor::createHostTensorFromDevice(const Tensor* device, bool copyData) {
    auto t = new Tensor(device, device->getDimensionType(), true);
    if (copyData) {
        device->copyToHostTensor(t);
    }
    return t;
}

Tensor::DimensionType Tensor::getDimensionType() const {
    return mDescribe->dimType;
}

Tensor::HandleDataType Tensor::getHandleDataType() const {
    return HANDLE_NONE;
}

void Tensor::setType(int type) {
    mBuffer.type = TensorUtils::typeOf((Schema::DataType)type);
}

std::vector<int> Tensor::shape() const {
    return TensorUtils::shape(this);
}

int Tensor::size() const {
    return (int)TensorUtils::byteSize(this);
}

size_t Tensor::usize() const {
    return (size_t)TensorUtils::byteSize(this);
}

int Tensor::elementSize() const {
    return (int)TensorUtils::elementCount(this);
}

void Tensor::printShape() const {
    MNN_PRINT("\t**Tensor shape**: ");
    for (int i = 0; i < mBuffer.dimensions; ++i) {
        MNN_PRINT("%d, ", mBuffer.dim[i].extent);
    }
    MNN_PRINT("\n");
}

void Tensor::print() const {
    MNN_PRINT("====== Tensor %p ======", this);
    printShape();
    const Tensor* src = this;
    Tensor* tmp = nullptr;
    if (getDimensionType() == CAFFE_C4 || (mDescribe->backend && mBuffer.device)) {
        tmp = new Tensor(this, CAFFE, true);
        copyToHostTensor(tmp);
        src = tmp;
    }
    int64_t n = TensorUtils::elementCount(src);
    auto t = src->getType();
    for (int64_t i = 0; src->host<void>() && i < n; ++i) {
        if (t.code == halide_type_float && t.bits == 32) {
            MNN_PRINT("%f, ", src->host<float>()[i]);
        } else if (t.code == halide_type_float && t.bits == 64) {
            MNN_PRINT("%f, ", src->host<double>()[i]);
        } else if (t.code == halide_type_int && t.bits == 32) {
            MNN_PRINT("%d, ", src->host<int32_t>()[i]);
        } else if (t.code == halide_type_int && t.bits == 64) {
            MNN_PRINT("%lld, ", (long long)src->host<int64_t>()[i]);
        } else if (t.code == halide_type_int && t.bits == 8) {
            MNN_PRINT("%d, ", src->host<int8_t>()[i]);
        } else if (t.code == halide_type_uint && t.bits == 8) {
            MNN_PRINT("%d, ", src->host<uint8_t>()[i]);
        } else {
            MNN_PRINT("?, ");
        }
    }
    MNN_PRINT("\n");
    delete tmp;
}

void* Tensor::map(MapType mtype, DimensionType dtype) {
    auto bn = mDescribe->backend;
    if (!bn || mBuffer.device == 0) {
        return mBuffer.host;
    }
    auto host = new Tensor(this, dtype, true);
    if (mtype == MAP_TENSOR_READ) {
        bn->onCopyBuffer(this, host);
    }
    // The host tensor is recovered in unmap from the pointer's owner list.
    bn->rememberMapped(host);
    return host->host<void>();
}

void Tensor::unmap(MapType mtype, DimensionType dtype, void* mapPtr) {
    auto bn = mDescribe->backend;
    if (!bn || mBuffer.device == 0) {
        return;
    }
    Tensor* host = bn->takeMapped(mapPtr);
    if (!host) {
        return;
    }
    if (mtype == MAP_TENSOR_WRITE) {
        bn->onCopyBuffer(host, this);
    }
    delete host;
}

int Tensor::wait(MapType, bool) {
    return 0;
}

} // namespace MNN
