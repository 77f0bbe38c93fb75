// Helpers of the data-movement op tests: one-op models with typed inputs / constants.
#ifndef MNN_TEST_DATAOPTESTUTIL_HPP
#define MNN_TEST_DATAOPTESTUTIL_HPP

#include <MNN/Interpreter.hpp>
#include <gtest/gtest.h>
#include <string.h>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

namespace MNN {
namespace Test {

template <typename T>
inline Schema::DataType dataTypeFor();
template <> inline Schema::DataType dataTypeFor<float>() { return Schema::DataType::DT_FLOAT; }
template <> inline Schema::DataType dataTypeFor<double>() { return Schema::DataType::DT_DOUBLE; }
template <> inline Schema::DataType dataTypeFor<int8_t>() { return Schema::DataType::DT_INT8; }
template <> inline Schema::DataType dataTypeFor<uint8_t>() { return Schema::DataType::DT_UINT8; }
template <> inline Schema::DataType dataTypeFor<int16_t>() { return Schema::DataType::DT_INT16; }
template <> inline Schema::DataType dataTypeFor<uint16_t>() { return Schema::DataType::DT_UINT16; }
template <> inline Schema::DataType dataTypeFor<int32_t>() { return Schema::DataType::DT_INT32; }
template <> inline Schema::DataType dataTypeFor<int64_t>() { return Schema::DataType::DT_INT64; }

template <typename T>
inline std::unique_ptr<Tensor> makeTyped(const std::vector<int>& dims, const std::vector<T>& values) {
    std::unique_ptr<Tensor> t(Tensor::create(dims, halide_type_of<T>(), nullptr, Tensor::CAFFE));
    if (t && !values.empty()) {
        ::memcpy(t->host<void>(), values.data(), sizeof(T) * values.size());
    }
    return t;
}

template <typename T>
inline std::vector<T> valuesOf(const Tensor* t) {
    int64_t n = 1;
    for (int i = 0; i < t->dimensions(); ++i) {
        n *= t->length(i);
    }
    return std::vector<T>(t->host<T>(), t->host<T>() + n);
}

/** a one-op (or few-op) model: typed graph inputs and constants, outputs by name */
class OpModel {
public:
    template <typename T>
    OpModel& input(const std::string& name, const std::vector<int>& dims, const std::vector<T>& values) {
        mBuilder.input(name, dims, dataTypeFor<T>());
        mFeeds[name] = makeTyped<T>(dims, values);
        return *this;
    }
    template <typename T>
    OpModel& constant(const std::string& name, const std::vector<int>& dims, const std::vector<T>& values) {
        mBuilder.constantRaw(name, dims, dataTypeFor<T>(), values.data(), values.size() * sizeof(T));
        return *this;
    }
    Schema::OpT* op(Schema::OpType type, const std::vector<std::string>& inputs,
                    const std::vector<std::string>& outputs, bool markOutputs = true) {
        auto o = mBuilder.op(type, std::string(Schema::EnumNameOpType(type)) + "_op", inputs, outputs);
        if (markOutputs) {
            for (auto& n : outputs) {
                mBuilder.output(n);
            }
        }
        return o;
    }
    ModelBuilder& builder() {
        return mBuilder;
    }
    RunResult run() {
        auto model = mBuilder.finish();
        std::map<std::string, const Tensor*> feeds;
        for (auto& kv : mFeeds) {
            feeds[kv.first] = kv.second.get();
        }
        return runModel(model, feeds);
    }
    /** createSession fails and logs one line mentioning `mention` (stderr) */
    ::testing::AssertionResult createFails(const std::string& mention) {
        auto model = mBuilder.finish();
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
        if (log.find(mention) == std::string::npos) {
            return ::testing::AssertionFailure() << "log does not mention '" << mention << "': " << log;
        }
        return ::testing::AssertionSuccess();
    }

private:
    ModelBuilder mBuilder;
    std::map<std::string, std::unique_ptr<Tensor>> mFeeds;
};

inline std::vector<int> dimsOf(const Tensor* t) {
    return t ? t->shape() : std::vector<int>{-1};
}

} // namespace Test
} // namespace MNN
#endif
