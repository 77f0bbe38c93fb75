#ifndef MNN_MNNFORWARDTYPE_H
#define MNN_MNNFORWARDTYPE_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    MNN_FORWARD_CPU = 0,
    MNN_FORWARD_METAL = 1,
    MNN_FORWARD_CUDA = 2,
    MNN_FORWARD_OPENCL = 3,
    MNN_FORWARD_AUTO = 4,
    MNN_FORWARD_NN = 5,
    MNN_FORWARD_OPENGL = 6,
    MNN_FORWARD_VULKAN = 7,
    MNN_FORWARD_USER_0 = 8,
    MNN_FORWARD_USER_1 = 9,
    MNN_FORWARD_USER_2 = 10,
    MNN_FORWARD_USER_3 = 11,
    MNN_FORWARD_ALL = 12,
    MNN_FORWARD_CPU_EXTENSION = 13,
} MNNForwardType;

typedef enum {
    // GPU mode flags carried in ScheduleConfig::numThread for GPU backends.
    MNN_GPU_TUNING_NONE = 1 << 0,
    MNN_GPU_TUNING_HEAVY = 1 << 1,
    MNN_GPU_TUNING_WIDE = 1 << 2,
    MNN_GPU_TUNING_NORMAL = 1 << 3,
    MNN_GPU_TUNING_FAST = 1 << 4,
    MNN_GPU_MEMORY_BUFFER = 1 << 6,
    MNN_GPU_MEMORY_IMAGE = 1 << 7,
} MNNGpuMode;

#ifdef __cplusplus
namespace MNN {
struct BackendConfig {
    enum MemoryMode { Memory_Normal = 0, Memory_High, Memory_Low };
    MemoryMode memory = Memory_Normal;

    enum PowerMode { Power_Normal = 0, Power_High, Power_Low };
    PowerMode power = Power_Normal;

    enum PrecisionMode { Precision_Normal = 0, Precision_High, Precision_Low, Precision_Low_BF16 };
    PrecisionMode precision = Precision_Normal;

    /** user defined context (e.g. a GPU context to share) */
    union {
        void* sharedContext = nullptr;
        size_t flags;
    };
};
} // namespace MNN
#endif

#endif
