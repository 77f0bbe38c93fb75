// convertOnnxFile / convertOnnxBuffer: load -> passes -> write.
#include <MNNConverter.hpp>
#include <fstream>
#include <sstream>
#include "OnnxLoader.hpp"
#include "Writer.hpp"
#include "passes/Passes.hpp"

namespace MNN {
namespace Convert {

Result convertOnnxBuffer(const void* data, size_t size, const Options& options, const std::string& baseDir) {
    Result r;
    try {
        if (options.weightQuantBits != 0 && options.weightQuantBits != 8) {
            r.error = "weightQuantBits must be 0 or 8, got " + std::to_string(options.weightQuantBits);
            return r;
        }
        Graph g;
        LoadReport report;
        loadOnnx(data, size, options, baseDir, g, &report);
        if (!report.unsupported.empty()) {
            r.unsupported = report.unsupported;
            std::string first = report.reasons.empty() ? "" : report.reasons[0];
            r.error = std::to_string(report.unsupported.size()) + " unsupported op(s), first: " + first;
            return r;
        }
        if (options.optimize) {
            runPasses(g);
        }
        r.model = writeModel(
            g, options, "MNNConvert from ONNX (" + report.producer + ", opset " + std::to_string(report.opset) + ")",
            &r.fp16);
        r.ok = true;
    } catch (std::exception& e) {
        r.ok = false;
        r.model.clear();
        r.error = e.what();
    }
    return r;
}

Result convertOnnxFile(const std::string& path, const Options& options) {
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        Result r;
        r.error = "cannot open " + path;
        return r;
    }
    std::stringstream ss;
    ss << f.rdbuf();
    std::string bytes = ss.str();
    auto slash = path.find_last_of('/');
    std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
    return convertOnnxBuffer(bytes.data(), bytes.size(), options, dir);
}

}  // namespace Convert
}  // namespace MNN
