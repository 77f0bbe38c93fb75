// The generated FlatBuffers headers for the model schema.
#ifndef MNN_CORE_SCHEMA_HPP
#define MNN_CORE_SCHEMA_HPP
#include "Net_generated.h"
#endif
