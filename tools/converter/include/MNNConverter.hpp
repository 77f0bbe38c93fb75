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
    bool fp16 = false;  // store float weights as fp16
    // with fp16: weights whose fp16 rounding moves the outputs most stay float, until the measured
    // output error max|fp16 - float| / max|float| on a calibration input is at most this (0: every
    // weight fp16, nothing measured). See tools/converter/source/Fp16Sensitivity.hpp.
    double fp16Target = 2e-3;
    // calibration inputs for that measurement, name -> (dims, values); inputs not given get
    // N(0, 1) values from a fixed seed (integer inputs: zeros), unknown dims 1
    std::map<std::string, std::pair<std::vector<int>, std::vector<float>>> calibrationInputs;
    int weightQuantBits = 0;                              // 8: int8 per-channel weights
    std::map<std::string, std::vector<int>> inputShapes;  // pin dims
    std::string bizCode = "MNN";
    bool optimize = true;  // run graph passes
};

/** what the fp16 sensitivity pass measured and kept float */
struct Fp16Report {
    bool measured = false;  // false: no measurement (target 0, nothing to compress, or note)
    int candidates = 0;     // weights --fp16 would store as fp16
    int keptFloat = 0;      // of those, kept float
    size_t keptBytes = 0;   // float bytes of the kept ones
    size_t halfBytes = 0;   // fp16 bytes of the others
    double errorAll = 0;    // measured output error, every candidate fp16
    double error = 0;       // measured output error of the written model
    int runs = 0;           // model runs
    double seconds = 0;
    std::string note;  // why nothing was measured
    std::string line() const;
};

struct Result {
    bool ok = false;
    std::vector<uint8_t> model;                                    // the .mnn bytes when ok
    std::vector<std::pair<std::string, std::string>> unsupported;  // (op type, node name)
    std::string error;                                             // one-line reason when !ok
    Fp16Report fp16;                                               // with Options::fp16
};

/** converts an ONNX model file; external data files are looked up relative to its folder */
Result convertOnnxFile(const std::string& path, const Options& options);
/** converts a serialized ONNX ModelProto; external data files are looked up relative to baseDir */
Result convertOnnxBuffer(const void* data, size_t size, const Options& options, const std::string& baseDir = "");

}  // namespace Convert
}  // namespace MNN

#endif
