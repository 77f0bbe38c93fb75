// Small helpers shared by the model-level test programs (ModelZoo, ModelAllocationFree,
// RealModels): whole-file reads, comma lists, and deleters for the engine's owning pointers.
#ifndef MNN_TEST_MODELS_MODELFILES_HPP
#define MNN_TEST_MODELS_MODELFILES_HPP

#include <MNN/Interpreter.hpp>
#include <MNN/Tensor.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace MNN {
namespace ModelFiles {

/** the whole file as a string ("" when it cannot be read) */
inline std::string readText(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

/** "a,b,,c" -> {"a", "b", "c"} */
inline std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    std::string x;
    while (std::getline(ss, x, ',')) {
        if (!x.empty()) {
            out.push_back(x);
        }
    }
    return out;
}

struct InterpreterDeleter {
    void operator()(Interpreter* p) const {
        Interpreter::destroy(p);
    }
};
struct TensorDeleter {
    void operator()(Tensor* p) const {
        Tensor::destroy(p);
    }
};

}  // namespace ModelFiles
}  // namespace MNN
#endif
