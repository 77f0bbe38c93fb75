// Typed tensors, typed output access and "createSession must fail with a log line" checks, shared
// by the elementwise / reduction op tests.
#ifndef MNN_TEST_OPS_OPTESTHELPERS_HPP
#define MNN_TEST_OPS_OPTESTHELPERS_HPP

#include <gtest/gtest.h>
#include <string.h>
#include <memory>
#include <string>
#include <vector>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

namespace MNN {
namespace Test {

template <typename T>
inline Schema::DataType dataTypeOf();
template <> inline Schema::DataType dataTypeOf<float>() { return Schema::DataType::DT_FLOAT; }
template <> inline Schema::DataType dataTypeOf<double>() { return Schema::DataType::DT_DOUBLE; }
template <> inline Schema::DataType dataTypeOf<int8_t>() { return Schema::DataType::DT_INT8; }
template <> inline Schema::DataType dataTypeOf<uint8_t>() { return Schema::DataType::DT_UINT8; }
template <> inline Schema::DataType dataTypeOf<int16_t>() { return Schema::DataType::DT_INT16; }
template <> inline Schema::DataType dataTypeOf<uint16_t>() { return Schema::DataType::DT_UINT16; }
template <> inline Schema::DataType dataTypeOf<int32_t>() { return Schema::DataType::DT_INT32; }
template <> inline Schema::DataType dataTypeOf<uint32_t>() { return Schema::DataType::DT_UINT32; }
template <> inline Schema::DataType dataTypeOf<int64_t>() { return Schema::DataType::DT_INT64; }
template <> inline Schema::DataType dataTypeOf<uint64_t>() { return Schema::DataType::DT_UINT64; }

/** a host tensor (CAFFE layout) of type T holding `values` */
template <typename T>
inline std::unique_ptr<Tensor> makeTyped(const std::vector<int>& dims, const std::vector<T>& values) {
    std::unique_ptr<Tensor> t(Tensor::create<T>(dims, nullptr, Tensor::CAFFE));
    if (t && !values.empty()) {
        ::memcpy(t->host<T>(), values.data(), sizeof(T) * values.size());
    }
    return t;
}

/** a typed constant in a model */
template <typename T>
inline int constantOf(ModelBuilder& mb, const std::string& name, const std::vector<int>& dims,
                      const std::vector<T>& values) {
    return mb.constantRaw(name, dims, dataTypeOf<T>(), values.data(), values.size() * sizeof(T));
}

/** the values of an output tensor, after checking its element type */
template <typename T>
inline std::vector<T> valuesOf(const Tensor* t) {
    std::vector<T> v;
    EXPECT_NE(t, nullptr);
    if (!t) {
        return v;
    }
    EXPECT_TRUE(t->getType() == halide_type_of<T>()) << "output type code " << (int)t->getType().code << " bits "
                                                    << (int)t->getType().bits;
    if (!(t->getType() == halide_type_of<T>())) {
        return v;
    }
    v.assign(t->host<T>(), t->host<T>() + t->elementSize());
    return v;
}

inline std::vector<int> shapeOf(const Tensor* t) {
    return t ? t->shape() : std::vector<int>{-1};
}

/**
 * Creating a session for `model` must fail, logging one line that names `opName` (and `needle`
 * when not empty).
 */
inline ::testing::AssertionResult createFails(const std::vector<uint8_t>& model, const std::string& opName,
                                              const std::string& needle = "") {
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    if (!net) {
        return ::testing::AssertionFailure() << "model did not load";
    }
    ScheduleConfig config;
    ::testing::internal::CaptureStderr();
    auto session = net->createSession(config);
    std::string log = ::testing::internal::GetCapturedStderr();
    if (session) {
        return ::testing::AssertionFailure() << "createSession succeeded";
    }
    if (log.find(opName) == std::string::npos) {
        return ::testing::AssertionFailure() << "log does not name op " << opName << ": " << log;
    }
    if (!needle.empty() && log.find(needle) == std::string::npos) {
        return ::testing::AssertionFailure() << "log does not mention '" << needle << "': " << log;
    }
    return ::testing::AssertionSuccess();
}

} // namespace Test
} // namespace MNN
#endif
