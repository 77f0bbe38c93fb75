// The buffer and type descriptions that MNN tensors expose (Halide-compatible layout).
#ifndef MNN_HALIDE_RUNTIME_H
#define MNN_HALIDE_RUNTIME_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum halide_type_code_t {
    halide_type_int = 0,
    halide_type_uint = 1,
    halide_type_float = 2,
    halide_type_handle = 3,
    halide_type_bfloat = 4
} halide_type_code_t;

struct halide_type_t {
#if __cplusplus >= 201103L
    halide_type_code_t code : 8;
#else
    uint8_t code;
#endif
    uint8_t bits;
    uint16_t lanes;

#ifdef __cplusplus
    halide_type_t(halide_type_code_t code, uint8_t bits, uint16_t lanes = 1) : code(code), bits(bits), lanes(lanes) {
    }
    halide_type_t() : code((halide_type_code_t)0), bits(0), lanes(0) {
    }
    bool operator==(const halide_type_t& other) const {
        return code == other.code && bits == other.bits && lanes == other.lanes;
    }
    bool operator!=(const halide_type_t& other) const {
        return !(*this == other);
    }
    /** size in bytes of one scalar element */
    int bytes() const {
        return (bits + 7) / 8;
    }
#endif
};

struct halide_device_interface_t;

typedef struct halide_dimension_t {
    int32_t min, extent, stride;
    uint32_t flags;
#ifdef __cplusplus
    halide_dimension_t() : min(0), extent(0), stride(0), flags(0) {
    }
    halide_dimension_t(int32_t m, int32_t e, int32_t s, uint32_t f = 0) : min(m), extent(e), stride(s), flags(f) {
    }
    bool operator==(const halide_dimension_t& other) const {
        return (min == other.min) && (extent == other.extent) && (stride == other.stride) && (flags == other.flags);
    }
    bool operator!=(const halide_dimension_t& other) const {
        return !(*this == other);
    }
#endif
} halide_dimension_t;

typedef enum { halide_buffer_flag_host_dirty = 1, halide_buffer_flag_device_dirty = 2 } halide_buffer_flags;

typedef struct halide_buffer_t {
    uint64_t device;                                  /** device handle, 0 when none */
    const struct halide_device_interface_t* device_interface;
    uint8_t* host;                                    /** host memory, nullptr when none */
    uint64_t flags;
    struct halide_type_t type;
    int32_t dimensions;
    halide_dimension_t* dim;
    void* padding;
} halide_buffer_t;

#ifdef __cplusplus
} // extern "C"
#endif

#ifdef __cplusplus
template <typename T>
struct halide_c_type_to_name {
    static const bool known_type = false;
};

template <typename T>
inline halide_type_t halide_type_of();

template <>
inline halide_type_t halide_type_of<float>() {
    return halide_type_t(halide_type_float, 32);
}
template <>
inline halide_type_t halide_type_of<double>() {
    return halide_type_t(halide_type_float, 64);
}
template <>
inline halide_type_t halide_type_of<bool>() {
    return halide_type_t(halide_type_uint, 8); // bool tensors hold 0/1 bytes
}
template <>
inline halide_type_t halide_type_of<uint8_t>() {
    return halide_type_t(halide_type_uint, 8);
}
template <>
inline halide_type_t halide_type_of<uint16_t>() {
    return halide_type_t(halide_type_uint, 16);
}
template <>
inline halide_type_t halide_type_of<uint32_t>() {
    return halide_type_t(halide_type_uint, 32);
}
template <>
inline halide_type_t halide_type_of<uint64_t>() {
    return halide_type_t(halide_type_uint, 64);
}
template <>
inline halide_type_t halide_type_of<int8_t>() {
    return halide_type_t(halide_type_int, 8);
}
template <>
inline halide_type_t halide_type_of<int16_t>() {
    return halide_type_t(halide_type_int, 16);
}
template <>
inline halide_type_t halide_type_of<int32_t>() {
    return halide_type_t(halide_type_int, 32);
}
template <>
inline halide_type_t halide_type_of<int64_t>() {
    return halide_type_t(halide_type_int, 64);
}
#endif

#endif
