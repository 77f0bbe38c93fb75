// MNN public definitions: export macro, version, logging helpers for the library itself.
#ifndef MNN_MNNDEFINE_H
#define MNN_MNNDEFINE_H

#include <stdio.h>

#if defined(_WIN32)
#if defined(MNN_BUILDING_LIBRARY)
#define MNN_PUBLIC __declspec(dllexport)
#else
#define MNN_PUBLIC
#endif
#else
#define MNN_PUBLIC __attribute__((visibility("default")))
#endif

#define MNN_VERSION_MAJOR 0
#define MNN_VERSION_MINOR 1
#define MNN_VERSION_PATCH 0
#define MNN_VERSION "0.1.0"

// Log lines go to stderr through C stdio (the library uses no iostreams).
#define MNN_PRINT(format, ...) fprintf(stdout, format, ##__VA_ARGS__)
#define MNN_ERROR(format, ...) fprintf(stderr, "[MNN] " format, ##__VA_ARGS__)

#endif
