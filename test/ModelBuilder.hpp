// Builds small MNN models in memory for tests (FlatBuffers object API). The converter writes
// models the same way.
#ifndef MNN_TEST_MODELBUILDER_HPP
#define MNN_TEST_MODELBUILDER_HPP

#include <MNN/Interpreter.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "core/Schema.hpp"

namespace MNN {
namespace Test {

class ModelBuilder {
public:
    ModelBuilder();
    /** index of a tensor by name, created on first use */
    int tensor(const std::string& name);
    /** a graph input; -1 dims are unknown */
    int input(const std::string& name, const std::vector<int>& dims,
              Schema::DataType type = Schema::DataType::DT_FLOAT);
    int constant(const std::string& name, const std::vector<int>& dims, const std::vector<float>& data);
    int constantInt32(const std::string& name, const std::vector<int>& dims, const std::vector<int32_t>& data);
    int constantInt64(const std::string& name, const std::vector<int>& dims, const std::vector<int64_t>& data);
    int constantRaw(const std::string& name, const std::vector<int>& dims, Schema::DataType type,
                    const void* data, size_t bytes);
    /** an op; "" in inputs leaves an optional input out. Set op->param to add parameters. */
    Schema::OpT* op(Schema::OpType type, const std::string& name, const std::vector<std::string>& inputs,
                    const std::vector<std::string>& outputs);
    void output(const std::string& name);
    Schema::NetT& net() {
        return *mNet;
    }
    std::vector<uint8_t> finish();

private:
    std::unique_ptr<Schema::NetT> mNet;
    std::map<std::string, int> mIndex;
};

/** a host tensor (CAFFE layout) with the given values */
std::unique_ptr<Tensor> makeTensor(const std::vector<int>& dims, const std::vector<float>& values);

/** runs a model once: inputs by name (copied in), returns host copies of the named outputs (all if empty) */
struct RunResult {
    ErrorCode code = NO_ERROR;
    std::map<std::string, std::shared_ptr<Tensor>> outputs;
};
RunResult runModel(const std::vector<uint8_t>& model, const std::map<std::string, const Tensor*>& inputs,
                   BackendConfig::PrecisionMode precision = BackendConfig::Precision_High);

} // namespace Test
} // namespace MNN
#endif
