// Checks a model buffer before anything reads it: FlatBuffers verification, then the
// semantic checks the engine relies on (indices in range, sizes consistent, ops known).
#ifndef MNN_CORE_MODELVALIDATOR_HPP
#define MNN_CORE_MODELVALIDATOR_HPP
#include <stddef.h>
#include <stdint.h>
#include "Schema.hpp"

namespace MNN {
/** the Net, or nullptr after one log line saying what is wrong and where */
const Schema::Net* validateModel(const uint8_t* data, size_t size);
} // namespace MNN
#endif
