// Dynamic uint8 quantization shared by DynamicQuantizeLinear and DynamicQuantizeLSTM (ONNX
// DynamicQuantizeLinear formulas): the range [min(0, min x), max(0, max x)] is mapped onto
// [0, 255]: scale = (max - min) / 255 (1 when the range is empty, as ONNX Runtime does, instead of
// ONNX's division by zero), zero point = saturate(round(0 - min / scale)),
// q = saturate(round(x / scale) + zero point); rounding half to even, NaN ignored by min / max
// and quantized to 0.
#ifndef MNN_CPU_CPUDYNAMICQUANT_HPP
#define MNN_CPU_CPUDYNAMICQUANT_HPP

#include <math.h>
#include <stdint.h>

namespace MNN {

struct DynamicQuant {
    float scale = 1.0f;
    int zeroPoint = 0;
};

inline float saturateU8(float v) {
    // NaN compares false both ways and becomes 0
    return v > 0.0f ? (v < 255.0f ? v : 255.0f) : 0.0f;
}

/** scale and zero point for x[0..n) */
inline DynamicQuant dynamicQuantParams(const float* x, int64_t n) {
    float lo = 0.0f, hi = 0.0f;
    for (int64_t i = 0; i < n; ++i) {
        const float v = x[i];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    DynamicQuant q;
    q.scale = hi == lo ? 1.0f : (hi - lo) / 255.0f;
    q.zeroPoint = (int)nearbyintf(saturateU8(0.0f - lo / q.scale));
    return q;
}

/** q[i] = saturate(round(x[i] / scale) + zeroPoint) */
inline void dynamicQuantize(const float* x, int64_t n, const DynamicQuant& p, uint8_t* q) {
    const float zp = (float)p.zeroPoint;
    for (int64_t i = 0; i < n; ++i) {
        q[i] = (uint8_t)saturateU8(nearbyintf(x[i] / p.scale) + zp);
    }
}

}  // namespace MNN
#endif
