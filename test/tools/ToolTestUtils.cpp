#if defined(MNN_TOOL_RUN)  // built only with the tools
#include "ToolTestUtils.hpp"
#include "TestUtils.hpp"
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <fstream>
#include <iterator>

namespace MNN {
namespace Test {

static std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) {
        if (c == '\'') {
            q += "'\\''";
        } else {
            q.push_back(c);
        }
    }
    return q + "'";
}

static std::string readText(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

ToolResult runTool(const std::string& binary, const std::vector<std::string>& args, const std::string& dir) {
    static int counter = 0;
    std::string outFile = dir + "/tool_out_" + std::to_string(counter) + ".txt";
    std::string errFile = dir + "/tool_err_" + std::to_string(counter) + ".txt";
    counter++;
    std::string cmd = quote(binary);
    for (auto& a : args) {
        cmd += " " + quote(a);
    }
    cmd += " >" + quote(outFile) + " 2>" + quote(errFile) + " </dev/null";
    int status = system(cmd.c_str());
    ToolResult r;
    r.exitCode = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
    r.out = readText(outFile);
    r.err = readText(errFile);
    if (hasSanitizerReport(r.err)) {
        ADD_FAILURE() << binary << " hit a sanitizer check:\n" << r.err;
    }
    return r;
}

std::vector<uint8_t> readFileBytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

bool writeFileBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write((const char*)bytes.data(), (std::streamsize)bytes.size());
    return (bool)f;
}

Npy::Array floatArray(const std::vector<int64_t>& shape, const std::vector<float>& values) {
    return Npy::Array::of<float>(shape, values.data());
}

std::vector<float> floatsOf(const Npy::Array& a) {
    auto d = a.toDouble();
    return std::vector<float>(d.begin(), d.end());
}

}  // namespace Test
}  // namespace MNN
#endif
