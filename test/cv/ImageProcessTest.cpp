// ImageProcess: float outputs against the formula (a plain double-precision sampler written
// here), layouts (NHWC / NCHW / NC4HW4 / raw with outputBpp and outputStride), padding, errors.
#include <MNN/ImageProcess.hpp>
#include <gtest/gtest.h>
#include <math.h>
#include <memory>
#include <random>
#include "CvOracle.hpp"

using namespace MNN;
using namespace MNN::CV;

namespace {
using ProcPtr = std::unique_ptr<ImageProcess, void (*)(ImageProcess*)>;

ProcPtr makeProc(const ImageProcess::Config& cfg) {
    return ProcPtr(ImageProcess::create(cfg), ImageProcess::destroy);
}

// Reference: value of channel `ch` of an interleaved uint8 image at source point (sx, sy).
double refSample(const std::vector<uint8_t>& img, int w, int h, int C, int ch, double sx, double sy, Filter f,
                 Wrap wrap, int pad) {
    auto fetch = [&](int x, int y) -> double {
        auto fix = [&](int i, int n, bool* out) {
            if (i >= 0 && i < n) {
                return i;
            }
            if (wrap == CLAMP_TO_EDGE) {
                return i < 0 ? 0 : n - 1;
            }
            if (wrap == REPEAT) {
                return ((i % n) + n) % n;
            }
            *out = true;
            return 0;
        };
        bool outside = false;
        int xi = fix(x, w, &outside), yi = fix(y, h, &outside);
        return outside ? pad : img[((size_t)yi * w + xi) * C + ch];
    };
    if (f == NEAREST) {
        return fetch((int)floor(sx + 0.5), (int)floor(sy + 0.5));
    }
    auto weights = [&](double t, double* wt) {
        if (f == BILINEAR) {
            wt[0] = 1 - t;
            wt[1] = t;
            return;
        }
        const double A = -0.75;
        auto k         = [&](double d) {
            d = fabs(d);
            if (d <= 1) {
                return ((A + 2) * d - (A + 3)) * d * d + 1;
            }
            if (d < 2) {
                return ((A * d - 5 * A) * d + 8 * A) * d - 4 * A;
            }
            return 0.0;
        };
        for (int i = 0; i < 4; ++i) {
            wt[i] = k(t - (i - 1));
        }
    };
    int n = f == BILINEAR ? 2 : 4, off = f == BILINEAR ? 0 : -1;
    int x0 = (int)floor(sx), y0 = (int)floor(sy);
    double wx[4], wy[4];
    weights(sx - x0, wx);
    weights(sy - y0, wy);
    double acc = 0;
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < n; ++i) {
            acc += wy[j] * wx[i] * fetch(x0 + off + i, y0 + off + j);
        }
    }
    return acc;
}

struct FloatCase {
    Filter filter;
    Wrap wrap;
    Matrix matrix;
};

// RGBA source -> BGR destination, float, mean / normal per destination channel.
void checkFloatLayouts(const FloatCase& fc) {
    const int iw = 23, ih = 17, ow = 19, oh = 13;
    auto src     = CvOracle::randomImage((size_t)iw * ih * 4, 77);
    ImageProcess::Config cfg;
    cfg.sourceFormat = RGBA;
    cfg.destFormat   = BGR;
    cfg.filterType   = fc.filter;
    cfg.wrap         = fc.wrap;
    const float mean[3] = {10, 20, 30}, normal[3] = {0.5f, 0.25f, 0.125f};
    for (int k = 0; k < 3; ++k) {
        cfg.mean[k]   = mean[k];
        cfg.normal[k] = normal[k];
    }
    auto proc = makeProc(cfg);
    proc->setMatrix(fc.matrix);
    proc->setPadding(9);
    // expected NCHW values: destination channel k (B, G, R) reads source channel 2 - k
    std::vector<double> expect((size_t)3 * oh * ow);
    for (int y = 0; y < oh; ++y) {
        for (int x = 0; x < ow; ++x) {
            Point p = fc.matrix.mapXY((float)x, (float)y);
            for (int k = 0; k < 3; ++k) {
                double v = refSample(src, iw, ih, 4, 2 - k, p.fX, p.fY, fc.filter, fc.wrap, 9);
                expect[((size_t)k * oh + y) * ow + x] = (v - mean[k]) * normal[k];
            }
        }
    }
    auto at = [&](int k, int y, int x) { return expect[((size_t)k * oh + y) * ow + x]; };
    const double eps = 1e-4;
    // NHWC
    std::unique_ptr<Tensor> nhwc(Tensor::create<float>({1, oh, ow, 3}, nullptr, Tensor::TENSORFLOW));
    ASSERT_EQ(NO_ERROR, proc->convert(src.data(), iw, ih, 0, nhwc.get()));
    // NCHW with a 4th channel that must be zeroed
    std::unique_ptr<Tensor> nchw(Tensor::create<float>({1, 4, oh, ow}, nullptr, Tensor::CAFFE));
    for (int i = 0; i < nchw->elementSize(); ++i) {
        nchw->host<float>()[i] = 123.0f;
    }
    ASSERT_EQ(NO_ERROR, proc->convert(src.data(), iw, ih, 0, nchw.get()));
    // NC4HW4
    std::unique_ptr<Tensor> c4(Tensor::create<float>({1, 3, oh, ow}, nullptr, Tensor::CAFFE_C4));
    ASSERT_EQ(NO_ERROR, proc->convert(src.data(), iw, ih, 0, c4.get()));
    // raw: 4 floats per pixel, rows padded to ow * 4 + 5 elements; padding must stay untouched
    const int rowStride = ow * 4 + 5;
    std::vector<float> raw((size_t)rowStride * oh, -777.0f);
    ASSERT_EQ(NO_ERROR, proc->convert(src.data(), iw, ih, 0, raw.data(), ow, oh, 4, rowStride));
    for (int y = 0; y < oh; ++y) {
        for (int x = 0; x < ow; ++x) {
            for (int k = 0; k < 3; ++k) {
                double e = at(k, y, x);
                ASSERT_NEAR(nhwc->host<float>()[((size_t)y * ow + x) * 3 + k], e, eps) << x << "," << y << "," << k;
                ASSERT_NEAR(nchw->host<float>()[((size_t)k * oh + y) * ow + x], e, eps);
                ASSERT_NEAR(c4->host<float>()[((size_t)y * ow + x) * 4 + k], e, eps);
                ASSERT_NEAR(raw[(size_t)y * rowStride + x * 4 + k], e, eps);
            }
            ASSERT_EQ(nchw->host<float>()[((size_t)3 * oh + y) * ow + x], 0.0f);
            ASSERT_EQ(c4->host<float>()[((size_t)y * ow + x) * 4 + 3], 0.0f);
            ASSERT_EQ(raw[(size_t)y * rowStride + x * 4 + 3], 0.0f);
        }
        for (int i = ow * 4; i < rowStride; ++i) {
            ASSERT_EQ(raw[(size_t)y * rowStride + i], -777.0f);
        }
    }
}
} // namespace

TEST(ImageProcess, FloatFormulaAllFiltersAndWraps) {
    Matrix rot;
    rot.setRotate(23, 9, 8);
    rot.postScale(1.3f, 0.8f);
    rot.postTranslate(-2.2f, 1.7f);
    Matrix scale = Matrix::MakeAll(1.37f, 0, -3.3f, 0, 1.61f, -2.45f, 0, 0, 1);
    Matrix persp = Matrix::MakeAll(0.9f, 0.1f, -2, -0.05f, 1.1f, 1, 0.01f, -0.005f, 1);
    for (int f = 0; f < 3; ++f) {
        for (int w = 0; w < 3; ++w) {
            for (auto& m : {rot, scale, persp}) {
                SCOPED_TRACE(testing::Message() << "filter " << f << " wrap " << w);
                checkFloatLayouts({(Filter)f, (Wrap)w, m});
            }
        }
    }
}

TEST(ImageProcess, DefaultsAndSimpleCreate) {
    // create(RGB, GRAY) with the default identity matrix: gray = OpenCV's 15-bit weights
    ProcPtr proc(ImageProcess::create(RGB, GRAY), ImageProcess::destroy);
    ASSERT_TRUE(proc != nullptr);
    EXPECT_TRUE(proc->matrix().isIdentity());
    const uint8_t rgb[6] = {255, 0, 0, 10, 200, 30};
    float out[2];
    ASSERT_EQ(NO_ERROR, proc->convert(rgb, 2, 1, 0, out, 2, 1, 0, 0, halide_type_of<float>()));
    EXPECT_EQ(out[0], 76.0f);   // (255 * 9798 + 2^14) >> 15
    EXPECT_EQ(out[1], 124.0f);  // (10 * 9798 + 200 * 19235 + 30 * 3735 + 2^14) >> 15
    // means / normals through the pointer form
    const float means[3] = {1, 2, 3}, normals[3] = {2, 3, 4};
    ProcPtr p2(ImageProcess::create(RGBA, RGB, means, 3, normals, 3), ImageProcess::destroy);
    const uint8_t rgba[4] = {11, 12, 13, 14};
    float o3[3];
    ASSERT_EQ(NO_ERROR, p2->convert(rgba, 1, 1, 0, o3, 1, 1));
    EXPECT_EQ(o3[0], 20.0f);
    EXPECT_EQ(o3[1], 30.0f);
    EXPECT_EQ(o3[2], 40.0f);
    // uint8 output with normalisation saturates
    uint8_t u3[3];
    ASSERT_EQ(NO_ERROR, p2->convert(rgba, 1, 1, 0, u3, 1, 1, 0, 0, halide_type_of<uint8_t>()));
    EXPECT_EQ(u3[0], 20);
    const float bigNormals[1] = {100};
    ProcPtr p3(ImageProcess::create(GRAY, GRAY, nullptr, 0, bigNormals, 1), ImageProcess::destroy);
    uint8_t g = 7, gout = 0;
    ASSERT_EQ(NO_ERROR, p3->convert(&g, 1, 1, 0, &gout, 1, 1, 0, 0, halide_type_of<uint8_t>()));
    EXPECT_EQ(gout, 255);
}

TEST(ImageProcess, StridesAndCrop) {
    // a 3x2 RGB image inside rows of 16 bytes; identity matrix into a 5x3 output crops / pads
    uint8_t src[2 * 16];
    for (int i = 0; i < 32; ++i) {
        src[i] = (uint8_t)(i * 3);
    }
    ImageProcess::Config cfg;
    cfg.sourceFormat = RGB;
    cfg.destFormat   = RGB;
    cfg.wrap         = ZERO;
    auto proc        = makeProc(cfg);
    proc->setPadding(5);
    uint8_t out[3 * 5 * 3];
    ASSERT_EQ(NO_ERROR, proc->convert(src, 3, 2, 16, out, 5, 3, 0, 0, halide_type_of<uint8_t>()));
    for (int y = 0; y < 3; ++y) {
        for (int x = 0; x < 5; ++x) {
            for (int k = 0; k < 3; ++k) {
                int e = (x < 3 && y < 2) ? src[y * 16 + x * 3 + k] : 5;
                EXPECT_EQ(out[(y * 5 + x) * 3 + k], e) << x << "," << y;
            }
        }
    }
}

TEST(ImageProcess, CreateImageTensor) {
    std::vector<uint8_t> data(4 * 3 * 2);
    for (size_t i = 0; i < data.size(); ++i) {
        data[i] = (uint8_t)i;
    }
    std::unique_ptr<Tensor> t(ImageProcess::createImageTensor<uint8_t>(4, 3, 2, data.data()));
    ASSERT_TRUE(t != nullptr);
    EXPECT_EQ(t->getDimensionType(), Tensor::TENSORFLOW);
    EXPECT_EQ(t->width(), 4);
    EXPECT_EQ(t->height(), 3);
    EXPECT_EQ(t->channel(), 2);
    EXPECT_EQ(t->host<uint8_t>()[23], 23);
    std::unique_ptr<Tensor> f(ImageProcess::createImageTensor<float>(8, 8, 3));
    ASSERT_TRUE(f != nullptr);
    EXPECT_EQ(f->getType(), halide_type_of<float>());
    EXPECT_EQ(ImageProcess::createImageTensor<float>(0, 8, 3), nullptr);
}

TEST(ImageProcess, InvalidArguments) {
    uint8_t src[64]  = {0};
    float dst[256]   = {0};
    auto rgba        = makeProc(ImageProcess::Config());
    EXPECT_EQ(INVALID_VALUE, rgba->convert(nullptr, 2, 2, 0, dst, 2, 2));
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 2, 2, 0, (void*)nullptr, 2, 2));
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 0, 2, 0, dst, 2, 2));
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 2, -1, 0, dst, 2, 2));
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 2, 2, 7, dst, 2, 2));  // stride < 2 * 4
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 2, 2, 0, dst, 0, 2));
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 2, 2, 0, dst, 2, 2, 3));      // outputBpp < 4 channels
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 2, 2, 0, dst, 2, 2, 4, 7));   // outputStride < 2 * 4
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 2, 2, 0, dst, 2, 2, 0, 0, halide_type_of<int32_t>()));
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 2, 2, 0, (Tensor*)nullptr));

    // unsupported pairs and bad enum values
    EXPECT_EQ(INVALID_VALUE, makeProc({NEAREST, HSV, YCrCb})->convert(src, 2, 2, 0, dst, 2, 2));
    EXPECT_EQ(INVALID_VALUE, makeProc({NEAREST, RGB, YUV_NV21})->convert(src, 2, 2, 0, dst, 2, 2));
    EXPECT_EQ(INVALID_VALUE, makeProc({NEAREST, GRAY, HSV})->convert(src, 2, 2, 0, dst, 2, 2));
    ImageProcess::Config bad;
    bad.sourceFormat = (ImageFormat)99;
    EXPECT_EQ(INVALID_VALUE, makeProc(bad)->convert(src, 2, 2, 0, dst, 2, 2));
    bad              = ImageProcess::Config();
    bad.filterType   = (Filter)7;
    EXPECT_EQ(INVALID_VALUE, makeProc(bad)->convert(src, 2, 2, 0, dst, 2, 2));
    bad              = ImageProcess::Config();
    bad.wrap         = (Wrap)-1;
    EXPECT_EQ(INVALID_VALUE, makeProc(bad)->convert(src, 2, 2, 0, dst, 2, 2));
    // YUV 4:2:0 needs even sizes; sides are limited to 2^20
    EXPECT_EQ(INVALID_VALUE, makeProc({NEAREST, YUV_NV21, RGB})->convert(src, 3, 2, 0, dst, 2, 2));
    EXPECT_EQ(INVALID_VALUE, makeProc({NEAREST, YUV_I420, RGB})->convert(src, 2, 5, 0, dst, 2, 2));
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 2, 2, 0, dst, 2, (1 << 20) + 1));
    // 16-bit word formats need uint8 output
    EXPECT_EQ(INVALID_VALUE, makeProc({NEAREST, RGB, BGR565})->convert(src, 2, 2, 0, dst, 2, 2));

    // tensors: rank, type, channels, no memory
    std::unique_ptr<Tensor> rank3(Tensor::create<float>({2, 2, 4}));
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 2, 2, 0, rank3.get()));
    std::unique_ptr<Tensor> i32(Tensor::create<int32_t>({1, 2, 2, 4}));
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 2, 2, 0, i32.get()));
    std::unique_ptr<Tensor> three(Tensor::create<float>({1, 3, 2, 2}, nullptr, Tensor::CAFFE));
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 2, 2, 0, three.get()));
    std::unique_ptr<Tensor> empty(Tensor::create<float>({1, 4, 0, 2}, nullptr, Tensor::CAFFE));
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 2, 2, 0, empty.get()));
    std::unique_ptr<Tensor> noMemory(Tensor::createDevice<float>({1, 2, 2, 4}));
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 2, 2, 0, noMemory.get()));

    // non-finite matrix
    Matrix nan;
    nan.set(Matrix::kMScaleX, NAN);
    rgba->setMatrix(nan);
    EXPECT_EQ(INVALID_VALUE, rgba->convert(src, 2, 2, 0, dst, 2, 2));
}

TEST(ImageProcess, ExtremeMatricesStayInBounds) {
    // huge / degenerate transforms must not read outside the source
    std::vector<uint8_t> src(5 * 4 * 4, 100);
    std::vector<float> dst(8 * 8 * 4);
    for (int f = 0; f < 3; ++f) {
        for (int w = 0; w < 3; ++w) {
            ImageProcess::Config cfg;
            cfg.filterType = (Filter)f;
            cfg.wrap       = (Wrap)w;
            auto proc      = makeProc(cfg);
            for (auto m : {Matrix::MakeScale(1e30f), Matrix::MakeTrans(-3e9f, 4e9f), Matrix::MakeScale(0.0f),
                           Matrix::MakeAll(1, 0, 0, 0, 1, 0, 1, 0, -3)}) {  // w = x - 3 hits 0 at x = 3
                proc->setMatrix(m);
                ASSERT_EQ(NO_ERROR, proc->convert(src.data(), 5, 4, 0, dst.data(), 8, 8));
                for (float v : dst) {
                    // ZERO mixes 100 with the padding 0; bicubic may overshoot a little
                    ASSERT_TRUE(fabsf(v - 100.0f) < 1e-3f || (w == ZERO && v >= -20.0f && v <= 120.0f))
                        << v << " filter " << f << " wrap " << w;
                }
            }
        }
    }
}

// Random formats, filters, wraps, matrices, sizes, strides and layouts on exactly sized buffers
// (run under ASan to catch any read or write outside them): NO_ERROR or INVALID_VALUE, nothing else.
TEST(ImageProcess, RandomisedArgumentsStayInBounds) {
    std::mt19937 gen(2024);
    auto pick = [&](int n) { return (int)(gen() % (unsigned)n); };
    auto real = [&](float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(gen); };
    for (int iter = 0; iter < 400; ++iter) {
        ImageProcess::Config cfg;
        cfg.sourceFormat = (ImageFormat)pick(15);
        cfg.destFormat   = (ImageFormat)pick(15);
        cfg.filterType   = (Filter)pick(3);
        cfg.wrap         = (Wrap)pick(3);
        auto proc        = makeProc(cfg);
        Matrix m;
        switch (pick(4)) {
            case 0: m.setScale(real(0.1f, 4), real(0.1f, 4)); m.postTranslate(real(-20, 20), real(-20, 20)); break;
            case 1: m.setRotate(real(0, 360), real(0, 20), real(0, 20)); break;
            case 2: m.setAll(real(-2, 2), real(-2, 2), real(-30, 30), real(-2, 2), real(-2, 2), real(-30, 30),
                             real(-0.05f, 0.05f), real(-0.05f, 0.05f), real(0.5f, 1.5f)); break;
            default: break;
        }
        proc->setMatrix(m);
        proc->setPadding((uint8_t)pick(256));
        const bool planar = cfg.sourceFormat == YUV_NV21 || cfg.sourceFormat == YUV_NV12 || cfg.sourceFormat == YUV_I420;
        int iw = 1 + pick(20), ih = 1 + pick(20);
        if (planar && pick(4) != 0) {
            iw += iw % 2;
            ih += ih % 2;
        }
        const int bpp   = std::max(1, ImageProcess::formatChannels(cfg.sourceFormat));
        const int extra = pick(3) == 0 ? pick(9) : 0;
        const int stride = iw * bpp + extra;
        size_t bytes     = (size_t)stride * ih;
        if (planar) {
            bytes += (cfg.sourceFormat == YUV_I420 ? 2 * (size_t)((stride + 1) / 2) : (size_t)stride) * ((ih + 1) / 2);
        }
        std::vector<uint8_t> src(bytes);
        for (auto& b : src) {
            b = (uint8_t)gen();
        }
        const int ow = 1 + pick(16), oh = 1 + pick(16);
        const int fmtC = std::max(1, ImageProcess::formatChannels(cfg.destFormat));
        ErrorCode code;
        if (pick(2) == 0) {
            const int outBpp = fmtC + pick(3), outStride = ow * outBpp + pick(5);
            const bool asFloat = pick(2) == 0;
            std::vector<uint8_t> dst((size_t)outStride * oh * (asFloat ? 4 : 1));
            code = proc->convert(src.data(), iw, ih, extra ? stride : 0, dst.data(), ow, oh, outBpp, outStride,
                                 asFloat ? halide_type_of<float>() : halide_type_of<uint8_t>());
        } else {
            const int c = fmtC + pick(2);
            auto layout = (Tensor::DimensionType)pick(3);
            std::vector<int> shape = layout == Tensor::TENSORFLOW ? std::vector<int>{1, oh, ow, c}
                                                                  : std::vector<int>{1, c, oh, ow};
            std::unique_ptr<Tensor> t(pick(2) == 0 ? Tensor::create<float>(shape, nullptr, layout)
                                                   : Tensor::create<uint8_t>(shape, nullptr, layout));
            code = proc->convert(src.data(), iw, ih, extra ? stride : 0, t.get());
        }
        ASSERT_TRUE(code == NO_ERROR || code == INVALID_VALUE) << "iteration " << iter << " code " << (int)code;
    }
}
