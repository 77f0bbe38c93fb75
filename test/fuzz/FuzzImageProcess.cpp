// libFuzzer target: ImageProcess::convert with fuzzed formats, filter, wrap, sizes, matrix, layout
// and pixels (the buffers themselves are always as large as the API contract asks).
#include <MNN/ImageProcess.hpp>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <memory>
#include <vector>


namespace {
struct Reader {
    const uint8_t* p;
    size_t n;
    uint8_t byte() {
        if (!n) {
            return 0;
        }
        n--;
        return *p++;
    }
    float real() {
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) {
            v = (v << 8) | byte();
        }
        float f;
        memcpy(&f, &v, 4);
        return f;
    }
};
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    Reader r{data, size};
    MNN::CV::ImageProcess::Config config;
    config.sourceFormat = (MNN::CV::ImageFormat)(r.byte() % 18);
    config.destFormat = (MNN::CV::ImageFormat)(r.byte() % 18);
    config.filterType = (MNN::CV::Filter)(r.byte() % 4);
    config.wrap = (MNN::CV::Wrap)(r.byte() % 4);
    for (int i = 0; i < 4; ++i) {
        config.mean[i] = (float)(r.byte() - 128);
        config.normal[i] = (float)r.byte() / 64.0f;
    }
    int iw = 1 + r.byte() % 48, ih = 1 + r.byte() % 48;
    int ow = 1 + r.byte() % 48, oh = 1 + r.byte() % 48;
    int layout = r.byte() % 3;
    bool asUint8 = r.byte() & 1;
    bool useMatrix = r.byte() & 1;
    std::unique_ptr<MNN::CV::ImageProcess> process(MNN::CV::ImageProcess::create(config));
    if (!process) {
        return 0;
    }
    if (useMatrix) {
        MNN::CV::Matrix m;
        float v[9];
        for (auto& x : v) {
            x = r.real();
        }
        m.set9(v);
        process->setMatrix(m);
    }
    process->setPadding(r.byte());
    // the largest source any format needs: 4 bytes per pixel
    std::vector<uint8_t> src((size_t)iw * ih * 4 + 16);
    for (size_t i = 0; i < src.size(); ++i) {
        src[i] = r.n ? r.byte() : (uint8_t)(i * 31);
    }
    MNN::Tensor::DimensionType dims[3] = {MNN::Tensor::TENSORFLOW, MNN::Tensor::CAFFE, MNN::Tensor::CAFFE_C4};
    std::vector<int> shape = layout == 0 ? std::vector<int>{1, oh, ow, 4} : std::vector<int>{1, 4, oh, ow};
    std::unique_ptr<MNN::Tensor> dst(asUint8 ? MNN::Tensor::create<uint8_t>(shape, nullptr, dims[layout])
                                             : MNN::Tensor::create<float>(shape, nullptr, dims[layout]));
    process->convert(src.data(), iw, ih, 0, dst.get());
    std::vector<float> raw((size_t)ow * oh * 4);
    process->convert(src.data(), iw, ih, 0, raw.data(), ow, oh, 4, 0, halide_type_of<float>());
    return 0;
}
