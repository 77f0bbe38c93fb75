// Internal: samples an 8-bit interleaved image at destination pixels mapped through a matrix.
#ifndef MNN_CV_IMAGESAMPLER_HPP
#define MNN_CV_IMAGESAMPLER_HPP

#include <MNN/ImageProcess.hpp>
#include <stdint.h>
#include <vector>

namespace MNN {
namespace CV {

struct SourceImage {
    const uint8_t* data = nullptr;
    int width           = 0;
    int height          = 0;
    int stride          = 0;  // bytes per row
    int channels        = 0;  // 1..4
};

/**
 * Produces one destination row at a time as floats (channels of the source image, interleaved).
 * Sample point of destination pixel (x, y): matrix * (x, y, 1) with pixel centres at integers.
 * NEAREST reads pixel floor(p + 0.5); BILINEAR / BICUBIC (Keys, a = -0.75) use taps around
 * floor(p). Each tap outside the image follows the wrap mode; with ZERO an outside tap reads
 * `padding`. Axis-aligned matrices use separable precomputed taps and cache filtered rows.
 */
class ImageSampler {
public:
    /** false when memory for the tap tables cannot be had */
    bool init(const SourceImage& src, const Matrix& m, Filter filter, Wrap wrap, uint8_t padding, int ow);
    void sampleRow(int y, float* out);

private:
    void sampleRowGeneral(int y, float* out);
    void sampleRowSeparable(int y, float* out);
    const float* filteredRow(int sourceRow, int slotHint[4], int usedCount);
    // taps for one coordinate: K indices (-1: outside, weight 0) and K weights
    void taps(float p, int size, int* idx, float* w) const;

    SourceImage mSrc;
    Matrix mMatrix;
    Filter mFilter = NEAREST;
    Wrap mWrap     = CLAMP_TO_EDGE;
    float mPadding = 0.0f;
    int mOw        = 0;
    int mTaps      = 1;
    bool mSeparable = false;
    // separable path
    std::vector<int> mColIdx;      // ow * K element offsets (index * channels), -1 outside
    std::vector<float> mColW;      // ow * K
    std::vector<float> mColInside; // ow: sum of inside weights
    std::vector<float> mRowCache;  // 4 slots of ow * channels
    int mCacheRow[4] = {-1, -1, -1, -1};
};

} // namespace CV
} // namespace MNN

#endif
