// ImageProcess throughput: the classifier preprocessing step (640x480 -> 224x224 bilinear,
// (x - mean) * normal, float NC4HW4 / NCHW) and a few neighbours. Compare with
// benchmark/imageprocess_opencv.py, which times OpenCV doing the same steps.
#include <MNN/ImageProcess.hpp>
#include <benchmark/benchmark.h>
#include <memory>
#include <random>
#include <vector>

using namespace MNN;
using namespace MNN::CV;

namespace {
std::vector<uint8_t> noise(size_t n) {
    std::mt19937 gen(1);
    std::vector<uint8_t> v(n);
    for (auto& b : v) {
        b = (uint8_t)(gen() & 0xff);
    }
    return v;
}

void run(benchmark::State& state, ImageFormat sf, ImageFormat df, Tensor::DimensionType layout, Filter filter,
         int iw, int ih) {
    const int ow = 224, oh = 224;
    bool planar  = sf == YUV_NV21 || sf == YUV_NV12 || sf == YUV_I420;
    auto src     = noise(planar ? (size_t)iw * ih * 3 / 2 : (size_t)iw * ih * ImageProcess::formatChannels(sf));
    ImageProcess::Config cfg;
    cfg.sourceFormat    = sf;
    cfg.destFormat      = df;
    cfg.filterType      = filter;
    const float mean[3] = {123.675f, 116.28f, 103.53f}, normal[3] = {1 / 58.395f, 1 / 57.12f, 1 / 57.375f};
    for (int k = 0; k < 3; ++k) {
        cfg.mean[k]   = mean[k];
        cfg.normal[k] = normal[k];
    }
    std::unique_ptr<ImageProcess, void (*)(ImageProcess*)> proc(ImageProcess::create(cfg), ImageProcess::destroy);
    Matrix m;
    m.setScale(iw / (float)ow, ih / (float)oh);
    m.preTranslate(0.5f, 0.5f);
    m.postTranslate(-0.5f, -0.5f);
    proc->setMatrix(m);
    int C = ImageProcess::formatChannels(df);
    std::unique_ptr<Tensor> t(Tensor::create<float>({1, C, oh, ow}, nullptr, layout));
    for (auto _ : state) {
        auto code = proc->convert(src.data(), iw, ih, 0, t.get());
        benchmark::DoNotOptimize(code);
        benchmark::DoNotOptimize(t->host<float>()[0]);
    }
    state.SetItemsProcessed(state.iterations() * ow * oh);
}
} // namespace

static void BM_RGBA_to_RGBA_C4_Bilinear(benchmark::State& s) {
    run(s, RGBA, RGBA, Tensor::CAFFE_C4, BILINEAR, 640, 480);
}
static void BM_RGBA_to_RGB_C4_Bilinear(benchmark::State& s) {
    run(s, RGBA, RGB, Tensor::CAFFE_C4, BILINEAR, 640, 480);
}
static void BM_RGBA_to_RGB_NCHW_Bilinear(benchmark::State& s) {
    run(s, RGBA, RGB, Tensor::CAFFE, BILINEAR, 640, 480);
}
static void BM_BGR_to_RGB_NCHW_Bilinear(benchmark::State& s) {
    run(s, BGR, RGB, Tensor::CAFFE, BILINEAR, 640, 480);
}
static void BM_NV21_to_RGB_C4_Bilinear(benchmark::State& s) {
    run(s, YUV_NV21, RGB, Tensor::CAFFE_C4, BILINEAR, 640, 480);
}
static void BM_RGBA_to_RGB_C4_Nearest(benchmark::State& s) {
    run(s, RGBA, RGB, Tensor::CAFFE_C4, NEAREST, 640, 480);
}
static void BM_RGBA_to_RGB_C4_Bicubic(benchmark::State& s) {
    run(s, RGBA, RGB, Tensor::CAFFE_C4, BICUBIC, 640, 480);
}
BENCHMARK(BM_RGBA_to_RGBA_C4_Bilinear)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RGBA_to_RGB_C4_Bilinear)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RGBA_to_RGB_NCHW_Bilinear)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_BGR_to_RGB_NCHW_Bilinear)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_NV21_to_RGB_C4_Bilinear)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RGBA_to_RGB_C4_Nearest)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RGBA_to_RGB_C4_Bicubic)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
