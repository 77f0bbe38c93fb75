// Helpers for the tool tests: run a tool binary, capture its output and exit status.
#ifndef MNN_TEST_TOOLS_TOOLTESTUTILS_HPP
#define MNN_TEST_TOOLS_TOOLTESTUTILS_HPP

#include <string>
#include <vector>
#include "common/Npy.hpp"

namespace MNN {
namespace Test {

struct ToolResult {
    int exitCode = -1;
    std::string out;
    std::string err;
};

/** runs `binary args...` (arguments single-quoted for the shell), stdout / stderr captured through files in dir */
ToolResult runTool(const std::string& binary, const std::vector<std::string>& args, const std::string& dir);

std::vector<uint8_t> readFileBytes(const std::string& path);
bool writeFileBytes(const std::string& path, const std::vector<uint8_t>& bytes);

Npy::Array floatArray(const std::vector<int64_t>& shape, const std::vector<float>& values);
std::vector<float> floatsOf(const Npy::Array& a);

}  // namespace Test
}  // namespace MNN
#endif
