// 8-bit colour conversions following OpenCV's documented cvtColor formulas and fixed-point
// conventions (coefficients scaled to integers, rounded results, saturation to 0..255).
#include "cv/ColorConvert.hpp"
#include <math.h>
#include <string.h>

namespace MNN {
namespace CV {
namespace Color {

namespace {
constexpr int fixed(double c, int shift) {
    return c >= 0 ? (int)(c * (1 << shift) + 0.5) : -(int)(-c * (1 << shift) + 0.5);
}
// Floor division by 2^shift (well defined for negative values too).
inline int descale(int v, int shift) {
    return v >= 0 ? (v >> shift) : -((-v + (1 << shift) - 1) >> shift);
}
inline uint8_t sat(int v) {
    return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v));
}

// RGB -> GRAY / YCrCb / YUV: 14-bit coefficients (0.299, 0.587, 0.114 sum to exactly 1 << 14).
constexpr int kYuvShift = 14;
constexpr int kR2Y      = fixed(0.299, kYuvShift);
constexpr int kG2Y      = fixed(0.587, kYuvShift);
constexpr int kB2Y      = fixed(0.114, kYuvShift);
constexpr int kCr       = fixed(0.713, kYuvShift);
constexpr int kCb       = fixed(0.564, kYuvShift);
constexpr int kU        = fixed(0.492, kYuvShift);
constexpr int kV        = fixed(0.877, kYuvShift);
constexpr int kDelta    = (128 << kYuvShift) + (1 << (kYuvShift - 1));

// RGB -> XYZ (D65): 12-bit coefficients.
constexpr int kXyzShift  = 12;
constexpr int kXyz[9]    = {fixed(0.412453, kXyzShift), fixed(0.357580, kXyzShift), fixed(0.180423, kXyzShift),
                            fixed(0.212671, kXyzShift), fixed(0.715160, kXyzShift), fixed(0.072169, kXyzShift),
                            fixed(0.019334, kXyzShift), fixed(0.119193, kXyzShift), fixed(0.950227, kXyzShift)};

// YUV 4:2:0 (BT.601 limited range) -> RGB: 20-bit coefficients.
constexpr int kYuv420Shift = 20;
constexpr int kCY          = fixed(1.164, kYuv420Shift);
constexpr int kCVR         = fixed(1.596, kYuv420Shift);
constexpr int kCVG         = fixed(-0.813, kYuv420Shift);
constexpr int kCUG         = fixed(-0.391, kYuv420Shift);
constexpr int kCUB         = fixed(2.018, kYuv420Shift);

// GRAY alone uses 15-bit coefficients (blue takes the remainder so that they sum to 1 << 15).
constexpr int kGrayShift = 15;
constexpr int kGrayR     = fixed(0.299, kGrayShift);
constexpr int kGrayG     = fixed(0.587, kGrayShift);
constexpr int kGrayB     = (1 << kGrayShift) - kGrayR - kGrayG;

// YCrCb / YUV (packed) -> RGB: 14-bit coefficients of the documented inverse formulas.
constexpr int kCr2R = fixed(1.403, kYuvShift);
constexpr int kCr2G = fixed(-0.714, kYuvShift);
constexpr int kCb2G = fixed(-0.344, kYuvShift);
constexpr int kCb2B = fixed(1.773, kYuvShift);
constexpr int kV2R  = fixed(1.140, kYuvShift);
constexpr int kV2G  = fixed(-0.581, kYuvShift);
constexpr int kU2G  = fixed(-0.395, kYuvShift);
constexpr int kU2B  = fixed(2.032, kYuvShift);
// XYZ -> RGB (D65, the inverse matrix): 12-bit coefficients.
constexpr int kXyzInv[9] = {fixed(3.240479, kXyzShift),  fixed(-1.53715, kXyzShift),  fixed(-0.498535, kXyzShift),
                            fixed(-0.969256, kXyzShift), fixed(1.875991, kXyzShift),  fixed(0.041556, kXyzShift),
                            fixed(0.055648, kXyzShift),  fixed(-0.204043, kXyzShift), fixed(1.057311, kXyzShift)};

inline int roundShift(int v, int shift) {
    return descale(v + (1 << (shift - 1)), shift);
}

// H (0..hrange), S, V (0..255) -> R, G, B through the sector formula, in float32; like OpenCV's
// 8-bit path the results are truncated, not rounded, when scaled back to 0..255
void rgbOfHsv(int h8, int s8, int v8, float hrange, uint8_t* rgb) {
    const float inv255 = 1.0f / 255.0f;
    float v = v8 * inv255, s = s8 * inv255;
    float r = v, g = v, b = v;
    if (s8 != 0) {
        float h = h8 * (6.0f / hrange);
        while (h < 0) {
            h += 6;
        }
        while (h >= 6) {
            h -= 6;
        }
        int sector = (int)floorf(h);
        float f    = h - sector;
        float p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
        switch (sector) {
            case 0: r = v; g = t; b = p; break;
            case 1: r = q; g = v; b = p; break;
            case 2: r = p; g = v; b = t; break;
            case 3: r = p; g = q; b = v; break;
            case 4: r = t; g = p; b = v; break;
            default: r = v; g = p; b = q; break;
        }
    }
    rgb[0] = sat((int)(r * 255.0f));
    rgb[1] = sat((int)(g * 255.0f));
    rgb[2] = sat((int)(b * 255.0f));
}

inline uint8_t grayOf(int r, int g, int b) {
    return (uint8_t)((r * kGrayR + g * kGrayG + b * kGrayB + (1 << (kGrayShift - 1))) >> kGrayShift);
}
inline uint8_t lumaOf(int r, int g, int b) {
    return (uint8_t)((r * kR2Y + g * kG2Y + b * kB2Y + (1 << (kYuvShift - 1))) >> kYuvShift);
}

void hsvOf(int r, int g, int b, int hrange, uint8_t* out) {
    int v    = r > g ? (r > b ? r : b) : (g > b ? g : b);
    int mn   = r < g ? (r < b ? r : b) : (g < b ? g : b);
    int diff = v - mn;
    int s    = v == 0 ? 0 : (int)floor(255.0 * diff / v + 0.5);
    int h    = 0;
    if (diff != 0) {
        double sector;
        if (v == r) {
            sector = (double)(g - b) / diff;
        } else if (v == g) {
            sector = 2.0 + (double)(b - r) / diff;
        } else {
            sector = 4.0 + (double)(r - g) / diff;
        }
        h = (int)floor(sector * hrange / 6.0 + 0.5);
        if (h < 0) {
            h += hrange;
        }
    }
    out[0] = sat(h);
    out[1] = sat(s);
    out[2] = (uint8_t)v;
}

// ---- decoding a row into RGBA ----
void toRgba(const uint8_t* src, ImageFormat sf, uint8_t* rgba, int count) {
    switch (sf) {
        case RGBA:
            ::memcpy(rgba, src, (size_t)count * 4);
            break;
        case BGRA:
            for (int i = 0; i < count; ++i) {
                rgba[4 * i + 0] = src[4 * i + 2];
                rgba[4 * i + 1] = src[4 * i + 1];
                rgba[4 * i + 2] = src[4 * i + 0];
                rgba[4 * i + 3] = src[4 * i + 3];
            }
            break;
        case RGB:
        case BGR: {
            int ri = sf == RGB ? 0 : 2;
            for (int i = 0; i < count; ++i) {
                rgba[4 * i + 0] = src[3 * i + ri];
                rgba[4 * i + 1] = src[3 * i + 1];
                rgba[4 * i + 2] = src[3 * i + 2 - ri];
                rgba[4 * i + 3] = 255;
            }
            break;
        }
        case GRAY:
            for (int i = 0; i < count; ++i) {
                rgba[4 * i + 0] = rgba[4 * i + 1] = rgba[4 * i + 2] = src[i];
                rgba[4 * i + 3] = 255;
            }
            break;
        case BGR565:
        case BGR555: {
            bool is565 = sf == BGR565;
            for (int i = 0; i < count; ++i) {
                int t           = src[2 * i] | (src[2 * i + 1] << 8);
                rgba[4 * i + 2] = (uint8_t)(t << 3);
                if (is565) {
                    rgba[4 * i + 1] = (uint8_t)((t >> 3) & ~3);
                    rgba[4 * i + 0] = (uint8_t)((t >> 8) & ~7);
                    rgba[4 * i + 3] = 255;
                } else {
                    // 555: bit 15 is a 1-bit alpha
                    rgba[4 * i + 1] = (uint8_t)((t >> 2) & ~7);
                    rgba[4 * i + 0] = (uint8_t)((t >> 7) & ~7);
                    rgba[4 * i + 3] = (t & 0x8000) ? 255 : 0;
                }
            }
            break;
        }
        case YCrCb:
        case YUV: {
            const bool ycrcb = sf == YCrCb;
            for (int i = 0; i < count; ++i) {
                int y = src[3 * i], c1 = src[3 * i + 1] - 128, c2 = src[3 * i + 2] - 128;
                int cr = ycrcb ? c1 : c2, cb = ycrcb ? c2 : c1;  // YUV stores U (blue) first
                uint8_t* d = rgba + 4 * i;
                if (ycrcb) {
                    d[0] = sat(y + roundShift(cr * kCr2R, kYuvShift));
                    d[1] = sat(y + roundShift(cr * kCr2G + cb * kCb2G, kYuvShift));
                    d[2] = sat(y + roundShift(cb * kCb2B, kYuvShift));
                } else {
                    d[0] = sat(y + roundShift(cr * kV2R, kYuvShift));
                    d[1] = sat(y + roundShift(cr * kV2G + cb * kU2G, kYuvShift));
                    d[2] = sat(y + roundShift(cb * kU2B, kYuvShift));
                }
                d[3] = 255;
            }
            break;
        }
        case XYZ:
            for (int i = 0; i < count; ++i) {
                int x = src[3 * i], y = src[3 * i + 1], z = src[3 * i + 2];
                for (int k = 0; k < 3; ++k) {
                    rgba[4 * i + k] =
                        sat(roundShift(x * kXyzInv[3 * k] + y * kXyzInv[3 * k + 1] + z * kXyzInv[3 * k + 2], kXyzShift));
                }
                rgba[4 * i + 3] = 255;
            }
            break;
        case HSV:
        case HSV_FULL: {
            // 8-bit HSV_FULL maps H 0..255 back onto the circle (the forward direction uses 256)
            const float hrange = sf == HSV ? 180.0f : 255.0f;
            for (int i = 0; i < count; ++i) {
                rgbOfHsv(src[3 * i], src[3 * i + 1], src[3 * i + 2], hrange, rgba + 4 * i);
                rgba[4 * i + 3] = 255;
            }
            break;
        }
        default:
            ::memset(rgba, 0, (size_t)count * 4);
            break;
    }
}

// ---- encoding a row from RGBA ----
// withAlpha: the source had an alpha channel (BGR555 keeps its top bit as a 1-bit alpha)
void fromRgba(const uint8_t* rgba, uint8_t* dst, ImageFormat df, int count, bool withAlpha) {
    switch (df) {
        case RGBA:
            ::memcpy(dst, rgba, (size_t)count * 4);
            break;
        case BGRA:
            for (int i = 0; i < count; ++i) {
                dst[4 * i + 0] = rgba[4 * i + 2];
                dst[4 * i + 1] = rgba[4 * i + 1];
                dst[4 * i + 2] = rgba[4 * i + 0];
                dst[4 * i + 3] = rgba[4 * i + 3];
            }
            break;
        case RGB:
        case BGR: {
            int ri = df == RGB ? 0 : 2;
            for (int i = 0; i < count; ++i) {
                dst[3 * i + ri]     = rgba[4 * i + 0];
                dst[3 * i + 1]      = rgba[4 * i + 1];
                dst[3 * i + 2 - ri] = rgba[4 * i + 2];
            }
            break;
        }
        case GRAY:
            for (int i = 0; i < count; ++i) {
                dst[i] = grayOf(rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2]);
            }
            break;
        case YCrCb:
        case YUV: {
            bool ycrcb = df == YCrCb;
            for (int i = 0; i < count; ++i) {
                int r = rgba[4 * i], g = rgba[4 * i + 1], b = rgba[4 * i + 2];
                int y = lumaOf(r, g, b);
                dst[3 * i] = (uint8_t)y;
                if (ycrcb) {
                    dst[3 * i + 1] = sat(descale((r - y) * kCr + kDelta, kYuvShift));
                    dst[3 * i + 2] = sat(descale((b - y) * kCb + kDelta, kYuvShift));
                } else {
                    dst[3 * i + 1] = sat(descale((b - y) * kU + kDelta, kYuvShift));
                    dst[3 * i + 2] = sat(descale((r - y) * kV + kDelta, kYuvShift));
                }
            }
            break;
        }
        case HSV:
        case HSV_FULL: {
            int hrange = df == HSV ? 180 : 256;
            for (int i = 0; i < count; ++i) {
                hsvOf(rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2], hrange, dst + 3 * i);
            }
            break;
        }
        case XYZ:
            for (int i = 0; i < count; ++i) {
                int r = rgba[4 * i], g = rgba[4 * i + 1], b = rgba[4 * i + 2];
                for (int k = 0; k < 3; ++k) {
                    int v = r * kXyz[3 * k] + g * kXyz[3 * k + 1] + b * kXyz[3 * k + 2];
                    dst[3 * i + k] = sat((v + (1 << (kXyzShift - 1))) >> kXyzShift);
                }
            }
            break;
        case BGR565:
        case BGR555: {
            bool is565 = df == BGR565;
            for (int i = 0; i < count; ++i) {
                int r = rgba[4 * i], g = rgba[4 * i + 1], b = rgba[4 * i + 2], a = rgba[4 * i + 3];
                int t = is565 ? ((b >> 3) | ((g & ~3) << 3) | ((r & ~7) << 8))
                              : ((b >> 3) | ((g & ~7) << 2) | ((r & ~7) << 7) | (withAlpha && a != 0 ? 0x8000 : 0));
                dst[2 * i]     = (uint8_t)(t & 0xff);
                dst[2 * i + 1] = (uint8_t)(t >> 8);
            }
            break;
        }
        default:
            break;
    }
}

template <ImageFormat DF>
void yuvRow(ImageFormat sf, const uint8_t* yRow, const uint8_t* uv, const uint8_t* uRow, const uint8_t* vRow,
            uint8_t* dst, int width) {
    constexpr int bpp  = (DF == RGBA || DF == BGRA) ? 4 : 3;
    constexpr int ri   = (DF == RGBA || DF == RGB) ? 0 : 2;
    constexpr int half = 1 << (kYuv420Shift - 1);
    const bool planar  = sf == YUV_I420;
    const int uOff     = sf == YUV_NV12 ? 0 : 1;
    const int vOff     = 1 - uOff;
    // one chroma sample covers two pixels; the shifts are arithmetic (floor) for negative sums
    for (int cx = 0; 2 * cx < width; ++cx) {
        int u = (planar ? uRow[cx] : uv[2 * cx + uOff]) - 128;
        int v = (planar ? vRow[cx] : uv[2 * cx + vOff]) - 128;
        int ruv = half + kCVR * v;
        int guv = half + kCVG * v + kCUG * u;
        int buv = half + kCUB * u;
        const int n = 2 * cx + 1 < width ? 2 : 1;
        for (int i = 0; i < n; ++i) {
            int x      = 2 * cx + i;
            int yy     = yRow[x] - 16;
            yy         = (yy < 0 ? 0 : yy) * kCY;
            uint8_t* d = dst + x * bpp;
            d[ri]      = sat((yy + ruv) >> kYuv420Shift);
            d[1]       = sat((yy + guv) >> kYuv420Shift);
            d[2 - ri]  = sat((yy + buv) >> kYuv420Shift);
            if (bpp == 4) {
                d[3] = 255;
            }
        }
    }
}
} // namespace

const char* name(int f) {
    static const char* names[] = {"RGBA",   "RGB",    "BGR",      "GRAY",     "BGRA",     "YCrCb",    "YUV",    "HSV",
                                  "XYZ",    "BGR555", "BGR565",   "YUV_NV21", "YUV_NV12", "YUV_I420", "HSV_FULL"};
    return validFormat(f) ? names[f] : "invalid";
}

bool validFormat(int f) {
    return f >= RGBA && f <= HSV_FULL;
}

bool isPacked(ImageFormat f) {
    switch (f) {
        case RGBA:
        case RGB:
        case BGR:
        case GRAY:
        case BGRA:
        case YCrCb:
        case YUV:
        case HSV:
        case XYZ:
        case HSV_FULL:
            return true;
        default:
            return false;
    }
}

bool isYuvPlanar(ImageFormat f) {
    return f == YUV_NV21 || f == YUV_NV12 || f == YUV_I420;
}

int bytesPerPixel(ImageFormat f) {
    switch (f) {
        case RGBA:
        case BGRA:
            return 4;
        case GRAY:
        case YUV_NV21:
        case YUV_NV12:
        case YUV_I420:
            return 1;
        case BGR555:
        case BGR565:
            return 2;
        default:
            return 3;
    }
}

int channels(ImageFormat f) {
    return bytesPerPixel(f);
}

static bool isColor(ImageFormat f) {
    return f == RGBA || f == RGB || f == BGR || f == BGRA;
}

bool supported(ImageFormat src, ImageFormat dst) {
    if (!validFormat(src) || !validFormat(dst)) {
        return false;
    }
    if (isYuvPlanar(dst)) {
        return false;
    }
    if (isColor(src)) {
        return true;
    }
    if (src == GRAY) {
        return isColor(dst) || dst == GRAY || dst == BGR555 || dst == BGR565;
    }
    if (src == BGR555 || src == BGR565 || isYuvPlanar(src)) {
        return isColor(dst) || dst == GRAY || dst == src;
    }
    return src == dst || isColor(dst) || dst == GRAY;  // YCrCb, YUV, HSV, HSV_FULL, XYZ
}

bool channelMap(ImageFormat src, ImageFormat dst, int map[4]) {
    if (src == dst && isPacked(src)) {
        for (int k = 0; k < 4; ++k) {
            map[k] = k;
        }
        return true;
    }
    // position of R, G, B, A in a colour format (-1: absent)
    auto pos = [](ImageFormat f, int* p) {
        switch (f) {
            case RGBA: p[0] = 0; p[1] = 1; p[2] = 2; p[3] = 3; break;
            case RGB:  p[0] = 0; p[1] = 1; p[2] = 2; p[3] = -1; break;
            case BGR:  p[0] = 2; p[1] = 1; p[2] = 0; p[3] = -1; break;
            case BGRA: p[0] = 2; p[1] = 1; p[2] = 0; p[3] = 3; break;
            default: p[0] = p[1] = p[2] = 0; p[3] = -1; break;  // GRAY
        }
    };
    if (!isColor(dst) || !(isColor(src) || src == GRAY)) {
        return false;
    }
    int sp[4], dp[4];
    pos(src, sp);
    pos(dst, dp);
    for (int k = 0; k < 4; ++k) {
        map[k] = -1;
    }
    for (int c = 0; c < 4; ++c) {
        if (dp[c] >= 0) {
            map[dp[c]] = sp[c];
        }
    }
    return true;
}

void convertPixels(const uint8_t* src, ImageFormat sf, uint8_t* dst, ImageFormat df, int count, uint8_t* scratch) {
    if (sf == df) {
        ::memcpy(dst, src, (size_t)count * bytesPerPixel(sf));
        return;
    }
    toRgba(src, sf, scratch, count);
    fromRgba(scratch, dst, df, count, sf == RGBA || sf == BGRA);
}

void decodeYuvRow(ImageFormat sf, const uint8_t* y, const uint8_t* uv, const uint8_t* u, const uint8_t* v,
                  ImageFormat df, uint8_t* dst, int width) {
    switch (df) {
        case GRAY:
            ::memcpy(dst, y, (size_t)width);
            break;
        case RGBA:
            yuvRow<RGBA>(sf, y, uv, u, v, dst, width);
            break;
        case BGRA:
            yuvRow<BGRA>(sf, y, uv, u, v, dst, width);
            break;
        case RGB:
            yuvRow<RGB>(sf, y, uv, u, v, dst, width);
            break;
        case BGR:
            yuvRow<BGR>(sf, y, uv, u, v, dst, width);
            break;
        default:
            break;
    }
}

} // namespace Color
} // namespace CV
} // namespace MNN
