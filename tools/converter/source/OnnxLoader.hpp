// ONNX ModelProto -> Graph. The only place that sees the protobuf types (with OnnxWeights.cpp).
#ifndef MNN_CONVERTER_ONNXLOADER_HPP
#define MNN_CONVERTER_ONNXLOADER_HPP

#include <MNNConverter.hpp>
#include "Graph.hpp"

namespace MNN {
namespace Convert {

struct LoadReport {
    std::vector<std::pair<std::string, std::string>> unsupported;  // (op type, node name)
    std::vector<std::string> reasons;                              // one per unsupported entry
    int opset = 0;
    std::string producer;
};

/** parses and maps the model into g; throws ConvertError for malformed models */
void loadOnnx(const void* data, size_t size, const Options& options, const std::string& baseDir, Graph& g,
              LoadReport* report);

}  // namespace Convert
}  // namespace MNN
#endif
