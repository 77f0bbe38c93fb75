// Internal colour conversion helpers of ImageProcess (8-bit, OpenCV cvtColor conventions).
#ifndef MNN_CV_COLORCONVERT_HPP
#define MNN_CV_COLORCONVERT_HPP

#include <MNN/ImageProcess.hpp>
#include <stdint.h>

namespace MNN {
namespace CV {
namespace Color {

/** true for formats stored one byte per channel (can be sampled channel by channel) */
bool isPacked(ImageFormat f);
bool isYuvPlanar(ImageFormat f);
/** bytes per pixel of packed formats and BGR555/565; 1 for YUV planar (the Y plane) */
int bytesPerPixel(ImageFormat f);
/** channels of the destination format (BGR555/565: 2 bytes) */
int channels(ImageFormat f);
bool validFormat(int f);
/** "RGBA", ... ("invalid" for values outside the enum) */
const char* name(int f);

/** the pair is supported (see ImageProcess.hpp) */
bool supported(ImageFormat src, ImageFormat dst);

/**
 * When dst is src with its channels reordered / dropped / an opaque alpha added, fills
 * map[k] (k < channels(dst)) with the source channel of destination channel k, -1 for 255,
 * and returns true.
 */
bool channelMap(ImageFormat src, ImageFormat dst, int map[4]);

/**
 * Converts `count` pixels between formats that are packed or BGR555/565 (RGBA, RGB, BGR, BGRA, GRAY,
 * BGR555, BGR565 sources; any supported destination). `scratch` holds count * 4 bytes.
 */
void convertPixels(const uint8_t* src, ImageFormat sf, uint8_t* dst, ImageFormat df, int count, uint8_t* scratch);

/**
 * Decodes one row of a 4:2:0 image to RGBA, RGB, BGR, BGRA or GRAY. y: the Y row; for NV21 / NV12
 * `uv` is the interleaved chroma row; for I420 `u` and `v` are the chroma rows.
 */
void decodeYuvRow(ImageFormat sf, const uint8_t* y, const uint8_t* uv, const uint8_t* u, const uint8_t* v,
                  ImageFormat df, uint8_t* dst, int width);

} // namespace Color
} // namespace CV
} // namespace MNN

#endif
