// Registration macros. CMake scans the sources for these macros and generates one function
// (MNN::registerAll) that calls every registration function; nothing relies on static
// initialisers, so static libraries keep every op.
#ifndef MNN_CORE_REGISTRY_HPP
#define MNN_CORE_REGISTRY_HPP

#include <MNN/ErrorCode.hpp>
#include <MNN/Tensor.hpp>
#include <vector>
#include "Schema.hpp"

namespace MNN {
class Backend;
class Execution;

/**
 * Shape function: sets every output's type, layout and dims from the inputs and the op.
 * Inputs whose *values* it needs are listed at registration; the engine guarantees their host
 * memory holds those values during the call. Returns NO_ERROR, or an error after one log line
 * naming the op and the problem.
 */
typedef ErrorCode (*ShapeFunction)(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                   const std::vector<Tensor*>& outputs);
/** FLOPs of one run of the op at the current shapes (a multiply-add counts 2) */
typedef double (*FlopsFunction)(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                const std::vector<Tensor*>& outputs);

struct ShapeEntry {
    ShapeFunction shape = nullptr;
    FlopsFunction flops = nullptr;
    /** bit i set: the function reads the values of input i */
    uint32_t contentInputs = 0;
    /** the output shape depends on the values of input 0 itself (NonZero, Unique...) */
    bool dataDependent = false;
    /** the output values depend only on the inputs' shapes and types (Shape, Size): evaluating
     *  them for a shape function needs no input values */
    bool valuesFromShapesOnly = false;
};

void registerShape(Schema::OpType type, const ShapeEntry& entry);
const ShapeEntry* getShape(Schema::OpType type);

typedef Execution* (*CPUCreator)(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs,
                                 const Schema::Op* op, Backend* backend);
void registerCPUCreator(Schema::OpType type, CPUCreator creator);
CPUCreator getCPUCreator(Schema::OpType type);

/** fills every registry once (generated; thread-safe) */
void registerAll();
const char* opTypeName(Schema::OpType type);

} // namespace MNN

// MNN_REGISTER_SHAPE(Name, entryExpression): Name is the OpType enumerator.
#define MNN_REGISTER_SHAPE(NAME, ...)                                    \
    namespace MNN {                                                      \
    void mnnRegisterShape_##NAME() {                                     \
        registerShape(Schema::OpType::NAME, __VA_ARGS__);                \
    }                                                                    \
    }

// MNN_REGISTER_CPU(Name, creatorFunction)
#define MNN_REGISTER_CPU(NAME, CREATOR)                                  \
    namespace MNN {                                                      \
    void mnnRegisterCPU_##NAME() {                                       \
        registerCPUCreator(Schema::OpType::NAME, CREATOR);               \
    }                                                                    \
    }

// MNN_REGISTER_RUNTIME(Name, MNNForwardType, creatorFunction)
#define MNN_REGISTER_RUNTIME(NAME, TYPE, CREATOR)                        \
    namespace MNN {                                                      \
    void mnnRegisterRuntime_##NAME() {                                   \
        registerRuntimeCreator(TYPE, CREATOR);                           \
    }                                                                    \
    }

#endif
