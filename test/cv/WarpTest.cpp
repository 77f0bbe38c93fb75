// Sampling conformance against OpenCV: cv2.warpAffine / warpPerspective with WARP_INVERSE_MAP
// (INTER_NEAREST / LINEAR / CUBIC x BORDER_REPLICATE / CONSTANT / WRAP) and cv2.resize.
//
// OpenCV's warp quantises sample positions to 1/32 pixel and weights to 15 bits; we sample with
// exact float positions. So noise images are only compared where positions are multiples of 1/32
// ("dyadic" matrices); arbitrary matrices (rotation, perspective) use a smooth image where the 1/64
// pixel position difference changes values by well under a level.
#include <MNN/ImageProcess.hpp>
#include <gtest/gtest.h>
#include <math.h>
#include <memory>
#include "CvOracle.hpp"

using namespace MNN;
using namespace MNN::CV;

namespace {
const char* kFilter[] = {"NEAREST", "BILINEAR", "BICUBIC"};
const char* kWrap[]   = {"CLAMP_TO_EDGE", "ZERO", "REPEAT"};

ImageFormat formatOf(int channels) {
    return channels == 4 ? RGBA : (channels == 3 ? RGB : GRAY);
}

std::vector<uint8_t> smoothImage(int w, int h, int c) {
    std::vector<uint8_t> v((size_t)w * h * c);
    for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
            for (int k = 0; k < c; ++k) {
                double f = 128 + 90 * sin(0.13 * x + 0.7 * k) * cos(0.09 * y - 0.3 * k) + 20 * sin(0.05 * (x + y));
                v[((size_t)y * w + x) * c + k] = (uint8_t)std::max(0.0, std::min(255.0, floor(f + 0.5)));
            }
        }
    }
    return v;
}

struct WarpCase {
    std::string name;
    std::vector<uint8_t> ours;
    std::string out;
    int tolerance;
    double allowedFraction;  // share of elements allowed beyond tolerance (nearest ties at cell borders)
    int hardLimit;           // no element may differ by more
};

class WarpRunner {
public:
    // m: 6 (affine) or 9 (perspective) values; queues warpAffine / warpPerspective
    void add(const std::vector<uint8_t>& src, int w, int h, int c, int ow, int oh, const std::vector<float>& m,
             Filter filter, Wrap wrap, uint8_t pad, int tolerance, double allowedFraction, const std::string& tag,
             int hardLimit = -1) {
        ImageProcess::Config cfg;
        cfg.sourceFormat = formatOf(c);
        cfg.destFormat   = formatOf(c);
        cfg.filterType   = filter;
        cfg.wrap         = wrap;
        std::unique_ptr<ImageProcess, void (*)(ImageProcess*)> proc(ImageProcess::create(cfg), ImageProcess::destroy);
        Matrix mat;
        if (m.size() == 6) {
            mat.setAll(m[0], m[1], m[2], m[3], m[4], m[5], 0, 0, 1);
        } else {
            mat.setAll(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]);
        }
        proc->setMatrix(mat);
        proc->setPadding(pad);
        WarpCase wc;
        wc.name = tag + " " + kFilter[filter] + " " + kWrap[wrap] + " c" + std::to_string(c);
        wc.ours.resize((size_t)ow * oh * c);
        wc.tolerance       = tolerance;
        wc.allowedFraction = allowedFraction;
        wc.hardLimit       = hardLimit < 0 ? tolerance : hardLimit;
        ASSERT_EQ(NO_ERROR, proc->convert(src.data(), w, h, 0, wc.ours.data(), ow, oh, 0, 0, halide_type_of<uint8_t>()));
        std::string in = mBatch.input("warp_in", src.data(), src.size());
        wc.out         = mBatch.output("warp_out");
        std::string args = "warp " + std::to_string(w) + " " + std::to_string(h) + " " + std::to_string(c) + " " +
                           std::to_string(ow) + " " + std::to_string(oh) + " " + kFilter[filter] + " " + kWrap[wrap] +
                           " " + std::to_string((int)pad);
        char buf[64];
        for (float v : m) {
            snprintf(buf, sizeof(buf), " %.9g", v);
            args += buf;
        }
        mBatch.add(args + " " + in + " " + wc.out);
        mCases.push_back(std::move(wc));
    }
    void addResize(const std::vector<uint8_t>& src, int w, int h, int c, int ow, int oh, Filter filter, int tolerance) {
        ImageProcess::Config cfg;
        cfg.sourceFormat = formatOf(c);
        cfg.destFormat   = formatOf(c);
        cfg.filterType   = filter;
        std::unique_ptr<ImageProcess, void (*)(ImageProcess*)> proc(ImageProcess::create(cfg), ImageProcess::destroy);
        // cv::resize: source = (x + 0.5) * iw / ow - 0.5
        Matrix mat;
        mat.setScale(w / (float)ow, h / (float)oh);
        mat.preTranslate(0.5f, 0.5f);
        mat.postTranslate(-0.5f, -0.5f);
        proc->setMatrix(mat);
        WarpCase wc;
        wc.name = "resize " + std::to_string(w) + "x" + std::to_string(h) + "->" + std::to_string(ow) + "x" +
                  std::to_string(oh) + " " + kFilter[filter] + " c" + std::to_string(c);
        wc.ours.resize((size_t)ow * oh * c);
        wc.tolerance       = tolerance;
        wc.allowedFraction = 0.0;
        wc.hardLimit       = tolerance;
        ASSERT_EQ(NO_ERROR, proc->convert(src.data(), w, h, 0, wc.ours.data(), ow, oh, 0, 0, halide_type_of<uint8_t>()));
        std::string in = mBatch.input("resize_in", src.data(), src.size());
        wc.out         = mBatch.output("resize_out");
        mBatch.add("resize " + std::to_string(w) + " " + std::to_string(h) + " " + std::to_string(c) + " " +
                   std::to_string(ow) + " " + std::to_string(oh) + " " + kFilter[filter] + " u8 " + in + " " + wc.out);
        mCases.push_back(std::move(wc));
    }
    void check() {
        ASSERT_EQ(0, mBatch.run());
        for (auto& c : mCases) {
            auto ref = CvOracle::readFile<uint8_t>(c.out);
            ASSERT_EQ(ref.size(), c.ours.size()) << c.name;
            int maxDiff = 0;
            size_t beyond = 0, worst = 0, differ = 0;
            for (size_t i = 0; i < ref.size(); ++i) {
                int d = std::abs((int)ref[i] - (int)c.ours[i]);
                differ += d != 0;
                beyond += d > c.tolerance;
                if (d > maxDiff) {
                    maxDiff = d;
                    worst   = i;
                }
            }
            double fraction = (double)beyond / (double)ref.size();
            EXPECT_LE(fraction, c.allowedFraction)
                << c.name << ": " << beyond << " of " << ref.size() << " elements differ by more than " << c.tolerance
                << "; worst at " << worst << " ours " << (int)c.ours[worst] << " opencv " << (int)ref[worst];
            EXPECT_LE(maxDiff, c.hardLimit) << c.name;
            if (maxDiff > 0) {
                printf("%-48s max diff %3d, %zu of %zu elements differ, %zu beyond %d\n", c.name.c_str(), maxDiff,
                       differ, ref.size(), beyond, c.tolerance);
            }
        }
    }

private:
    CvOracle::Batch mBatch;
    std::vector<WarpCase> mCases;
};
} // namespace

// Axis-aligned scale + translate (separable path), positions on a 1/4 grid, noise image.
TEST(Warp, ScaleTranslateNoise) {
    SKIP_WITHOUT_OPENCV();
    WarpRunner r;
    const int w = 40, h = 30;
    for (int c : {4, 3, 1}) {
        auto src = CvOracle::randomImage((size_t)w * h * c, 10 + c);
        for (int wr = 0; wr < 3; ++wr) {
            // nearest: positions never on a cell border (fractions are multiples of 0.1 plus 0.03 / 0.07)
            r.add(src, w, h, c, 64, 36, {0.7f, 0, 0.33f, 0, 1.3f, -3.07f}, NEAREST, (Wrap)wr, 77, 0, 0.0, "scale");
            for (int f : {1, 2}) {
                r.add(src, w, h, c, 64, 36, {0.75f, 0, 0.25f, 0, 1.375f, -3.125f}, (Filter)f, (Wrap)wr, 77, 1, 0.0,
                      "scale");
                r.add(src, w, h, c, 30, 50, {1.25f, 0, -4.5f, 0, 0.625f, -2.0f}, (Filter)f, (Wrap)wr, 0, 1, 0.0,
                      "scale2");
            }
        }
    }
    r.check();
}

// Shear / rotation with dyadic coefficients (general path), noise image.
TEST(Warp, AffineDyadicNoise) {
    SKIP_WITHOUT_OPENCV();
    WarpRunner r;
    const int w = 33, h = 27;
    for (int c : {4, 3, 1}) {
        auto src = CvOracle::randomImage((size_t)w * h * c, 20 + c);
        for (int wr = 0; wr < 3; ++wr) {
            r.add(src, w, h, c, 41, 35, {0, -1, 30, 1, 0, -3}, NEAREST, (Wrap)wr, 200, 0, 0.0, "rot90");
            for (int f : {1, 2}) {
                r.add(src, w, h, c, 41, 35, {0.75f, 0.25f, -2.5f, -0.5f, 1.25f, 3.0f}, (Filter)f, (Wrap)wr, 200, 1,
                      0.0, "shear");
            }
        }
    }
    r.check();
}

// Rotation + scale about the centre and a perspective map on a smooth image.
TEST(Warp, RotationPerspectiveSmooth) {
    SKIP_WITHOUT_OPENCV();
    WarpRunner r;
    const int w = 64, h = 48;
    for (int c : {4, 3, 1}) {
        auto src = smoothImage(w, h, c);
        Matrix rot;
        rot.setRotate(30.0f, 32.0f, 24.0f);
        rot.postScale(1.2f, 1.2f, 32.0f, 24.0f);
        std::vector<float> m(9);
        rot.get9(m.data());
        m.resize(6);
        std::vector<float> persp = {0.9f, 0.1f, -5.0f, -0.05f, 1.1f, 2.0f, 0.002f, -0.001f, 1.0f};
        for (int wr = 0; wr < 3; ++wr) {
            for (int f = 0; f < 3; ++f) {
                // nearest: a position within OpenCV's 1/1024 rounding of a cell border may pick the
                // neighbour. ZERO / REPEAT put sharp edges (image border, tile seam) into the smooth
                // image, where OpenCV's 1/32-pixel positions move values by up to ~4 levels.
                double frac = f == 0 ? 0.01 : (wr == CLAMP_TO_EDGE ? 0.0 : 0.01);
                int tol     = f == 0 ? 0 : 1;
                int hard    = f == 0 ? 255 : (wr == CLAMP_TO_EDGE ? 1 : 4);
                r.add(src, w, h, c, 70, 50, m, (Filter)f, (Wrap)wr, 33, tol, frac, "rotate30", hard);
                r.add(src, w, h, c, 60, 40, persp, (Filter)f, (Wrap)wr, 33, tol, frac, "perspective", hard);
            }
        }
    }
    r.check();
}

// cv::resize with INTER_LINEAR / INTER_CUBIC equals our matrix (x + 0.5) * s - 0.5 with clamping.
TEST(Warp, ResizeNoise) {
    SKIP_WITHOUT_OPENCV();
    WarpRunner r;
    auto big = CvOracle::randomImage((size_t)640 * 480 * 4, 31);
    r.addResize(big, 640, 480, 4, 224, 224, BILINEAR, 1);
    r.addResize(big, 640, 480, 4, 320, 240, BILINEAR, 1);
    auto small = CvOracle::randomImage((size_t)37 * 23 * 3, 32);
    r.addResize(small, 37, 23, 3, 100, 70, BILINEAR, 1);
    r.addResize(small, 37, 23, 3, 80, 50, BICUBIC, 1);
    auto gray = CvOracle::randomImage((size_t)50 * 40, 33);
    r.addResize(gray, 50, 40, 1, 31, 29, BILINEAR, 1);
    r.check();
}
