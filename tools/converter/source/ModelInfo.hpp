// A readable summary of a written .mnn model (MNNConvert --info, tests).
#ifndef MNN_CONVERTER_MODELINFO_HPP
#define MNN_CONVERTER_MODELINFO_HPP
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace MNN {
namespace Convert {
std::string describeModel(const std::vector<uint8_t>& model);
/** op type name -> count in the main graph of a .mnn buffer (empty if the buffer is invalid) */
std::map<std::string, int> modelOpCounts(const std::vector<uint8_t>& model);
}  // namespace Convert
}  // namespace MNN
#endif
