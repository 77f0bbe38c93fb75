// Public interface of the ONNX -> MNN converter library (MNNConverterLib).
#ifndef MNN_CONVERTER_HPP
#define MNN_CONVERTER_HPP

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace MNN {
namespace Convert {

struct Options {
    bool fp16 = false;                                    // store float weights as fp16
    int weightQuantBits = 0;                              // 8: int8 per-channel weights
    std::map<std::string, std::vector<int>> inputShapes;  // pin dims
    std::string bizCode = "MNN";
    bool optimize = true;  // run graph passes
};

struct Result {
    bool ok = false;
    std::vector<uint8_t> model;                                    // the .mnn bytes when ok
    std::vector<std::pair<std::string, std::string>> unsupported;  // (op type, node name)
    std::string error;                                             // one-line reason when !ok
};

/** converts an ONNX model file; external data files are looked up relative to its folder */
Result convertOnnxFile(const std::string& path, const Options& options);
/** converts a serialized ONNX ModelProto; external data files are looked up relative to baseDir */
Result convertOnnxBuffer(const void* data, size_t size, const Options& options, const std::string& baseDir = "");

}  // namespace Convert
}  // namespace MNN

#endif
