#ifndef MNN_CORE_MACRO_HPP
#define MNN_CORE_MACRO_HPP
#include <MNN/MNNDefine.h>
#define MNN_ALIGN_UP(x, a) (((x) + (a)-1) / (a) * (a))
#define MNN_UP_DIV(x, y) (((x) + (y)-1) / (y))
#define MNN_CHECK(cond, ...)          \
    do {                              \
        if (!(cond)) {                \
            MNN_ERROR(__VA_ARGS__);   \
        }                             \
    } while (0)
#endif
