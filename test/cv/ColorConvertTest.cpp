// cvtColor conformance: every supported format pair against OpenCV (cv2.cvtColor) as the oracle.
#include <MNN/ImageProcess.hpp>
#include <gtest/gtest.h>
#include <memory>
#include "CvOracle.hpp"

using namespace MNN;
using namespace MNN::CV;

namespace {
const char* kNames[] = {"RGBA", "RGB",    "BGR",    "GRAY",     "BGRA",     "YCrCb",    "YUV",     "HSV",
                        "XYZ",  "BGR555", "BGR565", "YUV_NV21", "YUV_NV12", "YUV_I420", "HSV_FULL"};

int srcBytes(ImageFormat f, int w, int h) {
    if (f == YUV_NV21 || f == YUV_NV12 || f == YUV_I420) {
        return w * h * 3 / 2;
    }
    return w * h * ImageProcess::formatChannels(f);
}

struct PairCase {
    ImageFormat sf, df;
    int tolerance;
    std::vector<uint8_t> ours;
    std::string out;
};

// Converts with an identity matrix into a uint8 buffer and queues cv2.cvtColor on the same input.
void addPair(CvOracle::Batch& batch, std::vector<PairCase>& cases, ImageFormat sf, ImageFormat df, int tolerance,
             unsigned seed) {
    const int w = 38, h = 26;
    auto src    = CvOracle::randomImage((size_t)srcBytes(sf, w, h), seed);
    if (sf == RGBA || sf == RGB || sf == BGR || sf == BGRA) {
        // grey pixels and saturated colours exercise HSV's special cases
        int c = ImageProcess::formatChannels(sf);
        for (int x = 0; x < w; ++x) {
            for (int k = 0; k < 3; ++k) {
                src[x * c + k] = (uint8_t)(x * 7);
            }
            src[(w + x) * c + 0] = (uint8_t)(x & 1 ? 255 : 0);
            src[(w + x) * c + 1] = (uint8_t)(x & 2 ? 255 : 0);
            src[(w + x) * c + 2] = (uint8_t)(x & 4 ? 255 : 0);
        }
    }
    ImageProcess::Config cfg;
    cfg.sourceFormat = sf;
    cfg.destFormat   = df;
    std::unique_ptr<ImageProcess, void (*)(ImageProcess*)> proc(ImageProcess::create(cfg), ImageProcess::destroy);
    const int dc = ImageProcess::formatChannels(df);
    PairCase c{sf, df, tolerance, std::vector<uint8_t>((size_t)w * h * dc), ""};
    ASSERT_EQ(NO_ERROR, proc->convert(src.data(), w, h, 0, c.ours.data(), w, h, 0, 0, halide_type_of<uint8_t>()));
    std::string in = batch.input("cvt_in", src.data(), src.size());
    c.out          = batch.output("cvt_out");
    batch.add(std::string("cvt ") + kNames[sf] + " " + kNames[df] + " " + std::to_string(w) + " " +
              std::to_string(h) + " " + in + " " + c.out);
    cases.push_back(std::move(c));
}

void checkCases(CvOracle::Batch& batch, const std::vector<PairCase>& cases) {
    ASSERT_EQ(0, batch.run());
    for (auto& c : cases) {
        auto ref = CvOracle::readFile<uint8_t>(c.out);
        ASSERT_EQ(c.ours.size(), ref.size()) << kNames[c.sf] << " -> " << kNames[c.df];
        int maxDiff = 0, mismatches = 0;
        size_t worst = 0;
        for (size_t i = 0; i < ref.size(); ++i) {
            int d = std::abs((int)c.ours[i] - (int)ref[i]);
            if ((c.df == HSV || c.df == HSV_FULL) && i % 3 == 0) {
                int range = c.df == HSV ? 180 : 256;
                d         = std::min(d, range - d);  // hue wraps around
            }
            mismatches += d != 0;
            if (d > maxDiff) {
                maxDiff = d;
                worst   = i;
            }
        }
        EXPECT_LE(maxDiff, c.tolerance) << kNames[c.sf] << " -> " << kNames[c.df] << ": element " << worst
                                        << " ours " << (int)c.ours[worst] << " opencv " << (int)ref[worst] << ", "
                                        << mismatches << " elements differ";
        if (maxDiff > 0) {
            printf("%s -> %s: max diff %d, %d of %d elements differ\n", kNames[c.sf], kNames[c.df], maxDiff,
                   mismatches, (int)ref.size());
        }
    }
}
} // namespace

TEST(ColorConvert, ChannelReorderAndGray) {
    SKIP_WITHOUT_OPENCV();
    CvOracle::Batch batch;
    std::vector<PairCase> cases;
    const ImageFormat colors[] = {RGBA, RGB, BGR, BGRA, GRAY};
    unsigned seed              = 1;
    for (auto s : colors) {
        for (auto d : colors) {
            if (s != d) {
                addPair(batch, cases, s, d, 0, seed++);
            }
        }
    }
    checkCases(batch, cases);
}

TEST(ColorConvert, ToYCrCbYuvXyz) {
    SKIP_WITHOUT_OPENCV();
    CvOracle::Batch batch;
    std::vector<PairCase> cases;
    const ImageFormat colors[] = {RGBA, RGB, BGR, BGRA};
    unsigned seed              = 100;
    for (auto s : colors) {
        for (auto d : {YCrCb, YUV, XYZ}) {
            addPair(batch, cases, s, d, 1, seed++);
        }
    }
    checkCases(batch, cases);
}

TEST(ColorConvert, ToHsv) {
    SKIP_WITHOUT_OPENCV();
    CvOracle::Batch batch;
    std::vector<PairCase> cases;
    const ImageFormat colors[] = {RGBA, RGB, BGR, BGRA};
    unsigned seed              = 200;
    for (auto s : colors) {
        for (auto d : {HSV, HSV_FULL}) {
            addPair(batch, cases, s, d, 1, seed++);
        }
    }
    checkCases(batch, cases);
}

TEST(ColorConvert, To565And555) {
    SKIP_WITHOUT_OPENCV();
    CvOracle::Batch batch;
    std::vector<PairCase> cases;
    const ImageFormat srcs[] = {RGBA, RGB, BGR, BGRA, GRAY};
    unsigned seed            = 300;
    for (auto s : srcs) {
        for (auto d : {BGR555, BGR565}) {
            addPair(batch, cases, s, d, 0, seed++);
        }
    }
    checkCases(batch, cases);
}

TEST(ColorConvert, From565And555) {
    SKIP_WITHOUT_OPENCV();
    CvOracle::Batch batch;
    std::vector<PairCase> cases;
    unsigned seed = 400;
    for (auto s : {BGR555, BGR565}) {
        for (auto d : {RGBA, RGB, BGR, BGRA, GRAY}) {
            addPair(batch, cases, s, d, 0, seed++);
        }
    }
    checkCases(batch, cases);
}

TEST(ColorConvert, FromYuv420) {
    SKIP_WITHOUT_OPENCV();
    CvOracle::Batch batch;
    std::vector<PairCase> cases;
    unsigned seed = 500;
    for (auto s : {YUV_NV21, YUV_NV12, YUV_I420}) {
        for (auto d : {RGBA, RGB, BGR, BGRA, GRAY}) {
            addPair(batch, cases, s, d, 0, seed++);
        }
    }
    checkCases(batch, cases);
}

TEST(ColorConvert, FromYCrCbYuvXyzHsv) {
    SKIP_WITHOUT_OPENCV();
    CvOracle::Batch batch;
    std::vector<PairCase> cases;
    unsigned seed = 600;
    for (auto s : {YCrCb, YUV, XYZ, HSV, HSV_FULL}) {
        for (auto d : {RGBA, RGB, BGR, BGRA, GRAY}) {
            addPair(batch, cases, s, d, 1, seed++);
        }
    }
    checkCases(batch, cases);
}
