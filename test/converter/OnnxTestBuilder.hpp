// Builds small ONNX models in C++ (onnx protobuf API) for the converter tests, plus helpers to
// convert them and run them through the engine.
#ifndef MNN_TEST_ONNXTESTBUILDER_HPP
#define MNN_TEST_ONNXTESTBUILDER_HPP

#include <MNNConverter.hpp>
#include <onnx/onnx_pb.h>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

namespace MNN {
namespace Test {

class OnnxBuilder {
public:
    explicit OnnxBuilder(int opset = 17);
    /** a graph input; -1 dims are dynamic, named by `symbols` where given */
    void input(const std::string& name, const std::vector<int64_t>& dims, int elemType = onnx::TensorProto::FLOAT,
               const std::vector<std::string>& symbols = {});
    void output(const std::string& name, int elemType = onnx::TensorProto::FLOAT);
    void initializer(const std::string& name, const std::vector<int64_t>& dims, const std::vector<float>& values);
    void initializerInt64(const std::string& name, const std::vector<int64_t>& dims,
                          const std::vector<int64_t>& values);
    onnx::NodeProto* node(const std::string& type, const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, const std::string& name = "");
    static void attr(onnx::NodeProto* n, const std::string& name, int64_t v);
    static void attr(onnx::NodeProto* n, const std::string& name, float v);
    static void attr(onnx::NodeProto* n, const std::string& name, const std::string& v);
    static void attr(onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& v);
    static void attrFloats(onnx::NodeProto* n, const std::string& name, const std::vector<float>& v);
    onnx::ModelProto& model() {
        return mModel;
    }
    onnx::GraphProto& graph() {
        return *mModel.mutable_graph();
    }
    std::string bytes() const;

private:
    onnx::ModelProto mModel;
    int mCount = 0;
};

Convert::Result convert(const OnnxBuilder& b, const Convert::Options& options = Convert::Options());
/** op type name -> count in a converted model */
std::map<std::string, int> opCounts(const std::vector<uint8_t>& model);
int totalOps(const std::vector<uint8_t>& model);
/** true when the engine in this build has shape functions and CPU kernels for all these op types */
bool engineHas(const std::vector<Schema::OpType>& types);
/** runs the model with named float inputs; returns output values by name (fails the test on error) */
std::map<std::string, std::vector<float>> runFloat(
    const std::vector<uint8_t>& model,
    const std::map<std::string, std::pair<std::vector<int>, std::vector<float>>>& inputs);
/** the root of a converted model (verified) */
const Schema::Net* netOf(const std::vector<uint8_t>& model);

#define REQUIRE_ENGINE_OPS(...)                                                                     \
    do {                                                                                            \
        if (!::MNN::Test::engineHas({__VA_ARGS__})) {                                               \
            GTEST_SKIP() << "this build's engine lacks a kernel this test runs (" #__VA_ARGS__ ")"; \
        }                                                                                           \
    } while (0)

}  // namespace Test
}  // namespace MNN
#endif
