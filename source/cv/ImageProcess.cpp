// MNN::CV::ImageProcess: prepare (decode / convert) -> sample -> reorder / encode -> normalise -> write.
#include <MNN/ImageProcess.hpp>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <memory>
#include <vector>
#include "cv/ColorConvert.hpp"
#include "cv/ImageSampler.hpp"

namespace MNN {
namespace CV {

struct ImageProcess::Inside {
    Config config;
};

namespace {
// Largest accepted image side (source and destination), keeping every buffer size far from overflow.
constexpr int kMaxSide = 1 << 20;

enum class Layout { Interleaved, Planar, C4 };

struct OutputDesc {
    uint8_t* base     = nullptr;
    bool isFloat      = true;
    Layout layout     = Layout::Interleaved;
    int width         = 0;
    int height        = 0;
    int channels      = 0;  // interleaved: elements per pixel; planar / C4: tensor channels
    int rowStride     = 0;  // interleaved: elements per row
};

bool isFloat32(halide_type_t t) {
    return t.code == halide_type_float && t.bits == 32 && t.lanes == 1;
}
bool isUint8(halide_type_t t) {
    return t.code == halide_type_uint && t.bits == 8 && t.lanes == 1;
}

inline uint8_t toByte(float v) {
    // round half up and saturate; NaN becomes 0
    if (!(v > 0.0f)) {
        return 0;
    }
    return v >= 255.0f ? 255 : (uint8_t)(int)(v + 0.5f);
}
} // namespace

ImageProcess::ImageProcess(const Config& config) {
    mInside         = new Inside;
    mInside->config = config;
}

ImageProcess::~ImageProcess() {
    delete mInside;
}

ImageProcess* ImageProcess::create(const Config& config, const Tensor* dstTensor) {
    (void)dstTensor;
    return new ImageProcess(config);
}

ImageProcess* ImageProcess::create(const ImageFormat sourceFormat, const ImageFormat destFormat, const float* means,
                                   const int meanCount, const float* normals, const int normalCount,
                                   const Tensor* dstTensor) {
    Config config;
    config.sourceFormat = sourceFormat;
    config.destFormat   = destFormat;
    for (int i = 0; means != nullptr && i < meanCount && i < 4; ++i) {
        config.mean[i] = means[i];
    }
    for (int i = 0; normals != nullptr && i < normalCount && i < 4; ++i) {
        config.normal[i] = normals[i];
    }
    return create(config, dstTensor);
}

void ImageProcess::destroy(ImageProcess* imageProcess) {
    delete imageProcess;
}

void ImageProcess::setMatrix(const Matrix& matrix) {
    mTransform = matrix;
    if (!mTransform.invert(&mTransformInvert)) {
        mTransformInvert.reset();
    }
}

int ImageProcess::formatChannels(ImageFormat format) {
    return Color::validFormat(format) ? Color::channels(format) : 0;
}

Tensor* ImageProcess::createImageTensor(halide_type_t type, int w, int h, int bpp, void* p) {
    if (w <= 0 || h <= 0 || bpp <= 0) {
        MNN_ERROR("ImageProcess::createImageTensor: invalid size w=%d h=%d bpp=%d\n", w, h, bpp);
        return nullptr;
    }
    return Tensor::create(std::vector<int>{1, h, w, bpp}, type, p, Tensor::TENSORFLOW);
}

// One conversion: everything validated, then run row by row.
static ErrorCode runConvert(const ImageProcess::Config& cfg, const Matrix& matrix, uint8_t padding,
                            const uint8_t* source, int iw, int ih, int stride, const OutputDesc& out) {
    const ImageFormat sf = cfg.sourceFormat;
    const ImageFormat df = cfg.destFormat;
    const bool dstWord   = df == BGR555 || df == BGR565;

    // 1. the image that is sampled (format P): the source itself, or a decoded / converted copy
    ImageFormat P  = sf;
    bool prepare   = false;
    int dummyMap[4];
    if (Color::isYuvPlanar(sf)) {
        P       = df;
        prepare = true;
    } else if (sf == BGR555 || sf == BGR565) {
        P       = df == sf ? (sf == BGR555 ? BGRA : BGR) : df;  // BGR555 keeps its alpha bit
        prepare = true;
    } else if (!dstWord && !Color::channelMap(sf, df, dummyMap)) {
        P       = df;
        prepare = true;
    }
    std::unique_ptr<uint8_t, void (*)(void*)> prepared(nullptr, ::free);
    SourceImage img;
    img.width    = iw;
    img.height   = ih;
    img.channels = Color::bytesPerPixel(P);
    if (prepare) {
        const size_t rowBytes = (size_t)iw * img.channels;
        prepared.reset((uint8_t*)::malloc(rowBytes * (size_t)ih));
        if (!prepared) {
            MNN_ERROR("ImageProcess::convert: out of memory for a %d x %d %s copy of the source\n", iw, ih,
                      Color::name(P));
            return OUT_OF_MEMORY;
        }
        std::vector<uint8_t> scratch((size_t)iw * 4);
        const uint8_t* chroma = source + (size_t)stride * ih;
        const int cstride     = (stride + 1) / 2;
        const int cheight     = (ih + 1) / 2;
        for (int y = 0; y < ih; ++y) {
            uint8_t* dstRow = prepared.get() + rowBytes * y;
            const uint8_t* srcRow = source + (size_t)stride * y;
            if (Color::isYuvPlanar(sf)) {
                const uint8_t* uv = chroma + (size_t)stride * (y / 2);
                const uint8_t* u  = chroma + (size_t)cstride * (y / 2);
                const uint8_t* v  = chroma + (size_t)cstride * (cheight + y / 2);
                Color::decodeYuvRow(sf, srcRow, uv, u, v, P, dstRow, iw);
            } else {
                Color::convertPixels(srcRow, sf, dstRow, P, iw, scratch.data());
            }
        }
        img.data   = prepared.get();
        img.stride = (int)rowBytes;
    } else {
        img.data   = source;
        img.stride = stride;
    }

    // 2. how sampled values become destination channels
    int map[4] = {0, 1, 2, 3};
    if (!dstWord && !Color::channelMap(P, df, map)) {
        MNN_ERROR("ImageProcess::convert: internal: no channel map from %s to %s\n", Color::name(P), Color::name(df));
        return INVALID_VALUE;
    }
    const int fmtC = Color::channels(df);
    const int C    = img.channels;

    ImageSampler sampler;
    if (!sampler.init(img, matrix, cfg.filterType, cfg.wrap, padding, out.width)) {
        MNN_ERROR("ImageProcess::convert: out of memory\n");
        return OUT_OF_MEMORY;
    }
    const int totalC = out.layout == Layout::C4 ? (out.channels + 3) / 4 * 4 : out.channels;
    // Every output channel k is row[x * C + srcIdx[k]] * scale[k] + bias[k]: a source channel
    // normalised, an opaque alpha (scale 0, bias (255 - mean) * normal) or a padding channel (0, 0).
    std::vector<int> srcIdx((size_t)totalC, 0);
    std::vector<float> scale((size_t)totalC, 0.0f), bias((size_t)totalC, 0.0f);
    for (int k = 0; k < fmtC; ++k) {
        if (dstWord) {  // encoded words are written as they are
            srcIdx[k] = k;
            scale[k]  = 1.0f;
        } else if (map[k] >= 0) {
            srcIdx[k] = map[k];
            scale[k]  = cfg.normal[k];
            bias[k]   = -cfg.mean[k] * cfg.normal[k];
        } else {
            bias[k] = (255.0f - cfg.mean[k]) * cfg.normal[k];
        }
    }
    const int rowC = dstWord ? 2 : C;  // channels per pixel of the row the output reads
    std::vector<float> row((size_t)out.width * C), words;
    std::vector<uint8_t> bytes, encoded, scratch;
    if (dstWord) {
        words.resize((size_t)out.width * 2);
        bytes.resize((size_t)out.width * C);
        encoded.resize((size_t)out.width * 2);
        scratch.resize((size_t)out.width * 4);
    }
    const size_t plane = (size_t)out.width * out.height;
    const int ow       = out.width;

    for (int y = 0; y < out.height; ++y) {
        sampler.sampleRow(y, row.data());
        const float* r = row.data();
        if (dstWord) {
            for (size_t i = 0; i < row.size(); ++i) {
                bytes[i] = toByte(row[i]);
            }
            Color::convertPixels(bytes.data(), P, encoded.data(), df, ow, scratch.data());
            for (int i = 0; i < ow * 2; ++i) {
                words[i] = encoded[i];
            }
            r = words.data();
        }
        if (out.layout == Layout::Interleaved) {
            const size_t rowOff = (size_t)y * out.rowStride;
            if (out.isFloat) {
                float* d = (float*)out.base + rowOff;
                for (int x = 0; x < ow; ++x) {
                    for (int k = 0; k < totalC; ++k) {
                        d[x * totalC + k] = r[x * rowC + srcIdx[k]] * scale[k] + bias[k];
                    }
                }
            } else {
                uint8_t* d = out.base + rowOff;
                for (int x = 0; x < ow; ++x) {
                    for (int k = 0; k < totalC; ++k) {
                        d[x * totalC + k] = toByte(r[x * rowC + srcIdx[k]] * scale[k] + bias[k]);
                    }
                }
            }
        } else if (out.layout == Layout::Planar) {
            for (int k = 0; k < totalC; ++k) {
                const size_t o   = k * plane + (size_t)y * ow;
                const float* s   = r + srcIdx[k];
                const float a    = scale[k], b = bias[k];
                if (out.isFloat) {
                    float* d = (float*)out.base + o;
                    for (int x = 0; x < ow; ++x) {
                        d[x] = s[x * rowC] * a + b;
                    }
                } else {
                    uint8_t* d = out.base + o;
                    for (int x = 0; x < ow; ++x) {
                        d[x] = toByte(s[x * rowC] * a + b);
                    }
                }
            }
        } else {
            for (int k4 = 0; k4 < totalC / 4; ++k4) {
                const size_t o = (k4 * plane + (size_t)y * ow) * 4;
                const int* si  = srcIdx.data() + k4 * 4;
                const float* a = scale.data() + k4 * 4;
                const float* b = bias.data() + k4 * 4;
                if (out.isFloat) {
                    float* d = (float*)out.base + o;
                    for (int x = 0; x < ow; ++x) {
                        const float* s = r + x * rowC;
                        d[4 * x + 0]   = s[si[0]] * a[0] + b[0];
                        d[4 * x + 1]   = s[si[1]] * a[1] + b[1];
                        d[4 * x + 2]   = s[si[2]] * a[2] + b[2];
                        d[4 * x + 3]   = s[si[3]] * a[3] + b[3];
                    }
                } else {
                    uint8_t* d = out.base + o;
                    for (int x = 0; x < ow; ++x) {
                        const float* s = r + x * rowC;
                        for (int j = 0; j < 4; ++j) {
                            d[4 * x + j] = toByte(s[si[j]] * a[j] + b[j]);
                        }
                    }
                }
            }
        }
    }
    return NO_ERROR;
}

// Validates the configuration and the source; returns the effective source stride in *stride.
static ErrorCode checkSource(const ImageProcess::Config& cfg, const Matrix& matrix, const uint8_t* source, int iw,
                             int ih, int* stride) {
    const ImageFormat sf = cfg.sourceFormat;
    const ImageFormat df = cfg.destFormat;
    if (!Color::validFormat(sf) || !Color::validFormat(df)) {
        MNN_ERROR("ImageProcess::convert: invalid image format (source %d, destination %d)\n", (int)sf, (int)df);
        return INVALID_VALUE;
    }
    if (!Color::supported(sf, df)) {
        MNN_ERROR("ImageProcess::convert: unsupported conversion from %s to %s\n", Color::name(sf), Color::name(df));
        return INVALID_VALUE;
    }
    if ((int)cfg.filterType < NEAREST || (int)cfg.filterType > BICUBIC || (int)cfg.wrap < CLAMP_TO_EDGE ||
        (int)cfg.wrap > REPEAT) {
        MNN_ERROR("ImageProcess::convert: invalid filter %d or wrap %d\n", (int)cfg.filterType, (int)cfg.wrap);
        return INVALID_VALUE;
    }
    if (source == nullptr) {
        MNN_ERROR("ImageProcess::convert: source is null\n");
        return INVALID_VALUE;
    }
    const int64_t minStride = (int64_t)iw * Color::bytesPerPixel(sf);
    if (iw <= 0 || ih <= 0 || iw > kMaxSide || ih > kMaxSide) {
        MNN_ERROR("ImageProcess::convert: invalid source size %d x %d (1..%d each)\n", iw, ih, kMaxSide);
        return INVALID_VALUE;
    }
    if (Color::isYuvPlanar(sf) && (iw % 2 != 0 || ih % 2 != 0)) {
        MNN_ERROR("ImageProcess::convert: %s source needs an even width and height, got %d x %d\n", Color::name(sf),
                  iw, ih);
        return INVALID_VALUE;
    }
    if (*stride == 0) {
        *stride = (int)minStride;
    }
    if (*stride < minStride) {
        MNN_ERROR("ImageProcess::convert: source stride %d is less than width %d * %d bytes\n", *stride, iw,
                  Color::bytesPerPixel(sf));
        return INVALID_VALUE;
    }
    for (int i = 0; i < 9; ++i) {
        if (!isfinite(matrix[i])) {
            MNN_ERROR("ImageProcess::convert: the matrix has a non-finite value at index %d\n", i);
            return INVALID_VALUE;
        }
    }
    return NO_ERROR;
}

ErrorCode ImageProcess::convert(const uint8_t* source, int iw, int ih, int stride, void* dest, int ow, int oh,
                                int outputBpp, int outputStride, halide_type_t type) {
    const Config& cfg = mInside->config;
    ErrorCode code    = checkSource(cfg, mTransform, source, iw, ih, &stride);
    if (code != NO_ERROR) {
        return code;
    }
    if (dest == nullptr) {
        MNN_ERROR("ImageProcess::convert: destination is null\n");
        return INVALID_VALUE;
    }
    const ImageFormat df = cfg.destFormat;
    const int fmtC       = Color::channels(df);
    if (ow <= 0 || oh <= 0 || ow > kMaxSide || oh > kMaxSide) {
        MNN_ERROR("ImageProcess::convert: invalid destination size %d x %d (1..%d each)\n", ow, oh, kMaxSide);
        return INVALID_VALUE;
    }
    if (!isFloat32(type) && !isUint8(type)) {
        MNN_ERROR("ImageProcess::convert: destination type (code %d, %d bits) is not float32 or uint8\n",
                  (int)type.code, (int)type.bits);
        return INVALID_VALUE;
    }
    if ((df == BGR555 || df == BGR565) && !isUint8(type)) {
        MNN_ERROR("ImageProcess::convert: %s (16-bit words) needs a uint8 destination\n", Color::name(df));
        return INVALID_VALUE;
    }
    if (outputBpp == 0) {
        outputBpp = fmtC;
    }
    if (outputBpp < fmtC || outputBpp > 4096) {
        MNN_ERROR("ImageProcess::convert: outputBpp %d is less than the %d channels of %s\n", outputBpp, fmtC,
                  Color::name(df));
        return INVALID_VALUE;
    }
    const int64_t minOutStride = (int64_t)ow * outputBpp;
    if (minOutStride > (1 << 30)) {
        MNN_ERROR("ImageProcess::convert: destination row of %lld elements is too large\n", (long long)minOutStride);
        return INVALID_VALUE;
    }
    if (outputStride == 0) {
        outputStride = (int)minOutStride;
    }
    if (outputStride < minOutStride) {
        MNN_ERROR("ImageProcess::convert: outputStride %d is less than ow %d * outputBpp %d\n", outputStride, ow,
                  outputBpp);
        return INVALID_VALUE;
    }
    OutputDesc out;
    out.base      = (uint8_t*)dest;
    out.isFloat   = isFloat32(type);
    out.layout    = Layout::Interleaved;
    out.width     = ow;
    out.height    = oh;
    out.channels  = outputBpp;
    out.rowStride = outputStride;
    return runConvert(cfg, mTransform, mPaddingValue, source, iw, ih, stride, out);
}

ErrorCode ImageProcess::convert(const uint8_t* source, int iw, int ih, int stride, Tensor* dest) {
    const Config& cfg = mInside->config;
    ErrorCode code    = checkSource(cfg, mTransform, source, iw, ih, &stride);
    if (code != NO_ERROR) {
        return code;
    }
    if (dest == nullptr) {
        MNN_ERROR("ImageProcess::convert: destination tensor is null\n");
        return INVALID_VALUE;
    }
    if (dest->dimensions() != 4) {
        MNN_ERROR("ImageProcess::convert: destination tensor has rank %d, expected 4\n", dest->dimensions());
        return INVALID_VALUE;
    }
    const halide_type_t type = dest->getType();
    if (!isFloat32(type) && !isUint8(type)) {
        MNN_ERROR("ImageProcess::convert: destination tensor type (code %d, %d bits) is not float32 or uint8\n",
                  (int)type.code, (int)type.bits);
        return INVALID_VALUE;
    }
    const ImageFormat df = cfg.destFormat;
    if ((df == BGR555 || df == BGR565) && !isUint8(type)) {
        MNN_ERROR("ImageProcess::convert: %s (16-bit words) needs a uint8 tensor\n", Color::name(df));
        return INVALID_VALUE;
    }
    const int ow = dest->width(), oh = dest->height(), oc = dest->channel(), on = dest->batch();
    const int fmtC = Color::channels(df);
    if (ow <= 0 || oh <= 0 || on <= 0 || oc < fmtC || ow > kMaxSide || oh > kMaxSide) {
        MNN_ERROR("ImageProcess::convert: destination tensor (n %d, c %d, h %d, w %d) is empty or has fewer than %d "
                  "channels\n",
                  on, oc, oh, ow, fmtC);
        return INVALID_VALUE;
    }
    Tensor* host = dest;
    Tensor* temp = nullptr;
    if (dest->host<void>() == nullptr) {
        if (dest->deviceId() == 0) {
            MNN_ERROR("ImageProcess::convert: destination tensor has no memory\n");
            return INVALID_VALUE;
        }
        temp = new Tensor(dest, dest->getDimensionType(), true);
        if (temp->host<void>() == nullptr) {
            delete temp;
            MNN_ERROR("ImageProcess::convert: out of memory for a host copy of the destination\n");
            return OUT_OF_MEMORY;
        }
        host = temp;
    }
    OutputDesc out;
    out.base    = host->host<uint8_t>();
    out.isFloat = isFloat32(type);
    out.width   = ow;
    out.height  = oh;
    out.channels = oc;
    switch (dest->getDimensionType()) {
        case Tensor::TENSORFLOW:
            out.layout    = Layout::Interleaved;
            out.rowStride = ow * oc;
            break;
        case Tensor::CAFFE:
            out.layout = Layout::Planar;
            break;
        default:
            out.layout = Layout::C4;
            break;
    }
    code = runConvert(cfg, mTransform, mPaddingValue, source, iw, ih, stride, out);
    if (temp) {
        if (code == NO_ERROR && !dest->copyFromHostTensor(temp)) {
            MNN_ERROR("ImageProcess::convert: copying into the device tensor failed\n");
            code = INVALID_VALUE;
        }
        delete temp;
    }
    return code;
}

} // namespace CV
} // namespace MNN
