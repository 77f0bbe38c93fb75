// Calls a generic lambda with a tag naming the C++ type of a tensor's element type, so a
// reference kernel is written once as a template. Used by the elementwise / reduction kernels.
#ifndef MNN_CPU_CPUTYPEDISPATCH_HPP
#define MNN_CPU_CPUTYPEDISPATCH_HPP

#include <MNN/HalideRuntime.h>
#include <stdint.h>

namespace MNN {
namespace CPUUtils {

template <typename T>
struct TypeTag {
    typedef T type;
};

/** f(TypeTag<T>{}) for float32/64 and every 8..64-bit integer type; false for other types */
template <typename F>
bool dispatchType(halide_type_t t, F&& f) {
    switch (t.code) {
        case halide_type_float:
            if (t.bits == 32) {
                f(TypeTag<float>{});
                return true;
            }
            if (t.bits == 64) {
                f(TypeTag<double>{});
                return true;
            }
            return false;
        case halide_type_int:
            switch (t.bits) {
                case 8: f(TypeTag<int8_t>{}); return true;
                case 16: f(TypeTag<int16_t>{}); return true;
                case 32: f(TypeTag<int32_t>{}); return true;
                case 64: f(TypeTag<int64_t>{}); return true;
                default: return false;
            }
        case halide_type_uint:
            switch (t.bits) {
                case 8: f(TypeTag<uint8_t>{}); return true;
                case 16: f(TypeTag<uint16_t>{}); return true;
                case 32: f(TypeTag<uint32_t>{}); return true;
                case 64: f(TypeTag<uint64_t>{}); return true;
                default: return false;
            }
        default:
            return false;
    }
}

inline bool isFloatType(halide_type_t t) {
    return t.code == halide_type_float && (t.bits == 32 || t.bits == 64);
}
inline bool isIntegerType(halide_type_t t) {
    return (t.code == halide_type_int || t.code == halide_type_uint) &&
           (t.bits == 8 || t.bits == 16 || t.bits == 32 || t.bits == 64);
}
inline bool isNumericType(halide_type_t t) {
    return isFloatType(t) || isIntegerType(t);
}
inline bool isBoolType(halide_type_t t) {
    return t.code == halide_type_uint && t.bits == 8;
}

} // namespace CPUUtils
} // namespace MNN
#endif
