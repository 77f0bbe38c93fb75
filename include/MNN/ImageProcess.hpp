// MNN::CV::ImageProcess: colour conversion + affine / perspective sampling + normalisation into
// tensors or raw buffers, in one pass.
#ifndef MNN_IMAGEPROCESS_HPP
#define MNN_IMAGEPROCESS_HPP

#include <stdint.h>
#include <MNN/ErrorCode.hpp>
#include <MNN/Matrix.h>
#include <MNN/Tensor.hpp>

namespace MNN {
namespace CV {

/**
 * The enums have a fixed underlying type (int) so that any value read from outside, including an
 * invalid one, can be checked (convert returns INVALID_VALUE) without undefined behaviour.
 *
 * Pixel formats. Packed formats hold one byte per channel in the order of their name
 * (RGBA: R, G, B, A). YCrCb (Y, Cr, Cb), YUV (Y, U, V; the packed 3-channel form), HSV / HSV_FULL
 * (H, S, V) and XYZ follow OpenCV's 8-bit cvtColor conventions: HSV's H is 0..179 (degrees / 2),
 * HSV_FULL's H is 0..255 (degrees * 256 / 360 when written; read back as H * 360 / 255, as
 * OpenCV). BGR555 / BGR565 are 2 bytes per pixel, one little-endian 16-bit word with blue in the
 * low bits (BGR555's top bit is a 1-bit alpha, set from a non-zero alpha).
 * YUV_NV21 / YUV_NV12 / YUV_I420 are planar 4:2:0 sources (BT.601 limited range, as OpenCV's
 * COLOR_YUV2RGB_NV21 / _NV12 / _I420): a Y plane of `ih` rows of `stride` bytes, then for
 * NV21 / NV12 ih/2 rows of `stride` bytes of interleaved V,U (NV21) or U,V (NV12) pairs,
 * for I420 a U plane then a V plane of ih/2 rows of ceil(stride/2) bytes. Width and height must be
 * even (as in OpenCV).
 */
enum ImageFormat : int {
    RGBA     = 0,
    RGB      = 1,
    BGR      = 2,
    GRAY     = 3,
    BGRA     = 4,
    YCrCb    = 5,
    YUV      = 6,
    HSV      = 7,
    XYZ      = 8,
    BGR555   = 9,
    BGR565   = 10,
    YUV_NV21 = 11,
    YUV_NV12 = 12,
    YUV_I420 = 13,
    HSV_FULL = 14,
};

/** sampling filter (OpenCV's INTER_NEAREST / INTER_LINEAR / INTER_CUBIC with a = -0.75) */
enum Filter : int { NEAREST = 0, BILINEAR = 1, BICUBIC = 2 };

/**
 * what a sample outside the source reads: CLAMP_TO_EDGE = the nearest edge pixel
 * (BORDER_REPLICATE), ZERO = the padding value, 0 unless setPadding (BORDER_CONSTANT),
 * REPEAT = the image tiled (BORDER_WRAP). Applied per filter tap.
 */
enum Wrap : int { CLAMP_TO_EDGE = 0, ZERO = 1, REPEAT = 2 };

/**
 * One configured conversion. Supported source -> destination formats:
 *  - RGBA, RGB, BGR, BGRA -> RGBA, RGB, BGR, BGRA, GRAY, YCrCb, YUV, HSV, HSV_FULL, XYZ, BGR555, BGR565
 *  - GRAY -> GRAY, RGBA, RGB, BGR, BGRA, BGR555, BGR565
 *  - BGR555 / BGR565 -> RGBA, RGB, BGR, BGRA, GRAY, and the same format
 *  - YUV_NV21 / YUV_NV12 / YUV_I420 -> RGBA, RGB, BGR, BGRA, GRAY
 *  - YCrCb, YUV, HSV, HSV_FULL, XYZ -> RGBA, RGB, BGR, BGRA, the same format, and GRAY (through RGB)
 * Other pairs make convert return INVALID_VALUE.
 *
 * Coordinates (the OpenCV convention): pixel centres sit at integer coordinates, pixel (x, y)
 * covers [x - 0.5, x + 0.5) x [y - 0.5, y + 0.5). The matrix (setMatrix) maps a DESTINATION pixel
 * (x, y) to the SOURCE point where it is sampled, exactly like cv::warpAffine / warpPerspective with
 * WARP_INVERSE_MAP; the default is the identity (dst(x, y) = src(x, y), i.e. a crop or pad).
 * To reproduce cv::resize from (iw, ih) to (ow, oh) use
 *   m.setScale(iw / (float)ow, ih / (float)oh); m.preTranslate(0.5f, 0.5f); m.postTranslate(-0.5f, -0.5f);
 * (source = (x + 0.5) * iw / ow - 0.5), with BILINEAR and CLAMP_TO_EDGE.
 *
 * Order of work: formats that are a channel reorder of the source (RGBA<->BGR, GRAY->RGB ...) are
 * sampled in the source format and reordered (exact); conversions such as RGB->GRAY / HSV / XYZ /
 * YCrCb / YUV convert the source image first and then sample (cvtColor, then warp); YUV planar and
 * BGR555/565 sources are decoded first; BGR555/565 destinations are encoded after sampling.
 *
 * Values: float destinations get dst = (sample - mean[c]) * normal[c] with c the DESTINATION channel
 * (for RGBA -> BGR, mean[0] applies to B); samples of BILINEAR / BICUBIC are not rounded. uint8
 * destinations get the same, rounded to nearest and saturated to 0..255 (mean / normal are not
 * applied to BGR555 / BGR565 words). Output channels beyond the format's channel count (e.g. the 4th
 * channel of an RGB image written with outputBpp 4 or into NC4HW4) are set to 0.
 */
class MNN_PUBLIC ImageProcess {
public:
    struct Inside;
    struct Config {
        Filter filterType        = NEAREST;
        ImageFormat sourceFormat = RGBA;
        ImageFormat destFormat   = RGBA;
        float mean[4]            = {0.0f, 0.0f, 0.0f, 0.0f};
        float normal[4]          = {1.0f, 1.0f, 1.0f, 1.0f};
        Wrap wrap                = CLAMP_TO_EDGE;
    };

    /** dstTensor is accepted for API compatibility (CPU conversion does not need it); never null */
    static ImageProcess* create(const Config& config, const Tensor* dstTensor = nullptr);
    /** means / normals: up to 4 values each (extra values ignored, missing ones 0 / 1) */
    static ImageProcess* create(const ImageFormat sourceFormat = RGBA, const ImageFormat destFormat = RGBA,
                                const float* means = nullptr, const int meanCount = 0, const float* normals = nullptr,
                                const int normalCount = 0, const Tensor* dstTensor = nullptr);
    ~ImageProcess();
    static void destroy(ImageProcess* imageProcess);

    ImageProcess(const ImageProcess&) = delete;
    ImageProcess& operator=(const ImageProcess&) = delete;

    const Matrix& matrix() const {
        return mTransform;
    }
    /** sets the destination -> source transform (see the class comment) */
    void setMatrix(const Matrix& matrix);

    /**
     * Converts `source` (iw x ih pixels, `stride` bytes per row, 0 = tightly packed) into `dest`, a
     * 4-D float32 or uint8 tensor in NHWC (TENSORFLOW), NCHW (CAFFE) or NC4HW4 (CAFFE_C4) whose
     * width / height give the output size; its channel count must be at least the destination
     * format's (extra channels are set to 0). Only batch 0 is written. A tensor without host
     * memory but with device memory is written through a host copy.
     * Image sides are limited to 1..2^20 pixels.
     * Returns INVALID_VALUE (one log line) for null pointers, non-positive sizes, a short stride,
     * an unsupported format pair or tensor type / rank / channel count.
     */
    ErrorCode convert(const uint8_t* source, int iw, int ih, int stride, Tensor* dest);

    /**
     * Same into a raw interleaved buffer of oh rows: `outputBpp` channels (elements) per pixel
     * (0 = the destination format's channel count; BGR555/565 count as 2), `outputStride` elements
     * per row (0 = ow * outputBpp), element type `type` (float32 or uint8).
     */
    ErrorCode convert(const uint8_t* source, int iw, int ih, int stride, void* dest, int ow, int oh,
                      int outputBpp = 0, int outputStride = 0, halide_type_t type = halide_type_of<float>());

    /** a host NHWC tensor {1, h, w, bpp}; p (when not null) is copied into it */
    template <typename T>
    static Tensor* createImageTensor(int w, int h, int bpp, void* p = nullptr) {
        return createImageTensor(halide_type_of<T>(), w, h, bpp, p);
    }
    static Tensor* createImageTensor(halide_type_t type, int w, int h, int bpp, void* p = nullptr);

    /** the value read outside the source with Wrap ZERO (default 0) */
    void setPadding(uint8_t value) {
        mPaddingValue = value;
    }

    /** number of channels of a format (BGR555/565: 2 bytes; YUV planar formats: 1, the Y plane) */
    static int formatChannels(ImageFormat format);

private:
    explicit ImageProcess(const Config& config);
    Matrix mTransform;
    Matrix mTransformInvert;
    Inside* mInside;
    uint8_t mPaddingValue = 0;
};

} // namespace CV
} // namespace MNN

#endif
