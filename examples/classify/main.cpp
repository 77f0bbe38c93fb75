// mnn_classify: image classification with the classic session API.
//
//   mnn_classify MODEL.mnn IMAGE [options]
//     --labels FILE        one class name per line
//     --resize-crop S      resize the shorter side to S, then centre-crop the model input size
//                          (torchvision's Resize(S) + CenterCrop; default: plain resize to the input)
//     --bgr                feed B, G, R instead of R, G, B
//     --mean a,b,c         per-channel mean in 0..255 units (default ImageNet 123.675,116.28,103.53)
//     --std a,b,c          per-channel std in 0..255 units (default ImageNet 58.395,57.12,57.375)
//     --size S             input size when the model's input has symbolic dims (default 224)
//     --threads N
//
// The image is decoded to RGBA by stb_image; one ImageProcess::convert does the colour conversion,
// the bilinear resize / crop (a matrix mapping input pixels to image pixels) and
// (x - mean) / std into the session's input tensor.
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>

#include <MNN/ImageProcess.hpp>
#include <MNN/Interpreter.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

using namespace MNN;

namespace {
bool parseTriple(const char* s, float out[3]) {
    return s && std::sscanf(s, "%f,%f,%f", &out[0], &out[1], &out[2]) == 3;
}

void usage() {
    std::fprintf(stderr,
                 "usage: mnn_classify MODEL.mnn IMAGE [--labels FILE] [--resize-crop S] [--bgr] [--mean a,b,c] "
                 "[--std a,b,c] [--size S] [--threads N]\n");
}
} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        usage();
        return 1;
    }
    const char* modelPath = argv[1];
    const char* imagePath = argv[2];
    std::string labelsPath;
    int resizeShorter = 0, size = 224, threads = 4;
    bool bgr          = false;
    float mean[3]     = {123.675f, 116.28f, 103.53f};
    float stdev[3]    = {58.395f, 57.12f, 57.375f};
    for (int i = 3; i < argc; ++i) {
        std::string a   = argv[i];
        const char* val = i + 1 < argc ? argv[i + 1] : nullptr;
        if (a == "--labels" && val) {
            labelsPath = val;
            ++i;
        } else if (a == "--resize-crop" && val) {
            resizeShorter = std::atoi(val);
            ++i;
        } else if (a == "--size" && val) {
            size = std::atoi(val);
            ++i;
        } else if (a == "--threads" && val) {
            threads = std::atoi(val);
            ++i;
        } else if (a == "--bgr") {
            bgr = true;
        } else if (a == "--mean" && parseTriple(val, mean)) {
            ++i;
        } else if (a == "--std" && parseTriple(val, stdev)) {
            ++i;
        } else {
            usage();
            return 1;
        }
    }

    int iw = 0, ih = 0, comp = 0;
    std::unique_ptr<uint8_t, void (*)(void*)> pixels(stbi_load(imagePath, &iw, &ih, &comp, 4), stbi_image_free);
    if (!pixels) {
        std::fprintf(stderr, "cannot decode %s: %s\n", imagePath, stbi_failure_reason());
        return 1;
    }

    std::shared_ptr<Interpreter> net(Interpreter::createFromFile(modelPath), Interpreter::destroy);
    if (!net) {
        return 1;  // the reason was logged
    }
    ScheduleConfig config;
    config.type      = MNN_FORWARD_CPU;
    config.numThread = threads;
    Session* session = net->createSession(config);
    if (!session) {
        std::fprintf(stderr, "cannot create a session for %s\n", modelPath);
        return 1;
    }
    Tensor* input = net->getSessionInput(session, nullptr);
    if (!input || input->dimensions() != 4) {
        std::fprintf(stderr, "the model's first input is not a 4-D image tensor\n");
        return 1;
    }
    int oh = input->height(), ow = input->width(), oc = input->channel();
    if (oh <= 1 || ow <= 1) {  // symbolic height / width start at 1: choose the size
        net->resizeTensor(input, {1, oc > 0 ? oc : 3, size, size});
        net->resizeSession(session);
        oh = ow = size;
    }

    // input pixel (x, y) -> image pixel: resize (and crop) with pixel centres at integers
    CV::Matrix m;
    float sx = iw / (float)ow, sy = ih / (float)oh, offX = 0, offY = 0;
    if (resizeShorter > 0) {
        float s = std::min(iw, ih) / (float)resizeShorter;  // image pixels per resized pixel
        sx = sy = s;
        offX    = std::round((iw / s - ow) / 2.0f);
        offY    = std::round((ih / s - oh) / 2.0f);
    }
    m.setScale(sx, sy);
    m.preTranslate(offX + 0.5f, offY + 0.5f);
    m.postTranslate(-0.5f, -0.5f);

    CV::ImageProcess::Config pre;
    pre.sourceFormat = CV::RGBA;
    pre.destFormat   = oc == 1 ? CV::GRAY : (bgr ? CV::BGR : CV::RGB);
    pre.filterType   = CV::BILINEAR;
    pre.wrap         = CV::CLAMP_TO_EDGE;
    for (int k = 0; k < 3; ++k) {
        pre.mean[k]   = mean[k];
        pre.normal[k] = 1.0f / stdev[k];
    }
    std::unique_ptr<CV::ImageProcess, void (*)(CV::ImageProcess*)> process(CV::ImageProcess::create(pre),
                                                                          CV::ImageProcess::destroy);
    process->setMatrix(m);
    Tensor hostInput(input, Tensor::CAFFE, true);
    if (process->convert(pixels.get(), iw, ih, 0, &hostInput) != NO_ERROR || !input->copyFromHostTensor(&hostInput)) {
        std::fprintf(stderr, "preprocessing failed\n");
        return 1;
    }

    if (net->runSession(session) != NO_ERROR) {
        std::fprintf(stderr, "inference failed\n");
        return 1;
    }
    Tensor* output = net->getSessionOutput(session, nullptr);
    Tensor hostOutput(output, Tensor::CAFFE, true);
    output->copyToHostTensor(&hostOutput);
    const int n = hostOutput.elementSize();
    if (n <= 0 || hostOutput.getType().code != halide_type_float) {
        std::fprintf(stderr, "unexpected output\n");
        return 1;
    }
    const float* scores = hostOutput.host<float>();
    // softmax for display (monotonic: the ranking is the same for logits and probabilities)
    float maxv = *std::max_element(scores, scores + n);
    double sum = 0;
    for (int i = 0; i < n; ++i) {
        sum += std::exp((double)scores[i] - maxv);
    }
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    const int top = std::min(5, n);
    std::partial_sort(order.begin(), order.begin() + top, order.end(),
                      [&](int a, int b) { return scores[a] > scores[b] || (scores[a] == scores[b] && a < b); });
    std::vector<std::string> labels;
    if (!labelsPath.empty()) {
        std::ifstream f(labelsPath);
        for (std::string line; std::getline(f, line);) {
            labels.push_back(line);
        }
    }
    std::printf("image %s: %dx%d, model input %dx%d\n", imagePath, iw, ih, ow, oh);
    for (int i = 0; i < top; ++i) {
        int c = order[i];
        std::printf("%d: class %d score %.7g prob %.5f%s%s\n", i + 1, c, scores[c], std::exp(scores[c] - maxv) / sum,
                    c < (int)labels.size() ? " " : "", c < (int)labels.size() ? labels[c].c_str() : "");
    }
    return 0;
}
