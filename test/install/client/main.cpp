// An outside app built against the installed MNN (CI stage 3): includes every public header the
// way apps written for classic MNN do and uses each, with checks that fail the run:
//   MNNDefine.h      version macros against getVersion(), MNN_PRINT / MNN_PUBLIC
//   AutoTime.hpp     AUTOTIME with MNN_OPEN_TIME_TRACE (its printed line read back), Timer;
//                    notrace.cpp checks that AUTOTIME is empty without the switch
//   Interpreter.hpp  createFromFile, sessions with ScheduleConfig / BackendConfig, resize to batch 2,
//                    callbacks with OperatorInfo, getSessionInfo, releaseSession
//   Tensor.hpp, HalideRuntime.h   host tensors, halide types, copies in and out
//   ErrorCode.hpp, MNNForwardType.h   return codes, forward types, BackendConfig modes
//   ImageProcess.hpp, Matrix.h, Rect.h   an RGBA image resized and normalised into the input
// usage: mnn_client model.mnn [input.npy expected.npy]   (float32 NCHW .npy files; with them the
// batch-1 output must match expected.npy within 1e-4)
#define MNN_OPEN_TIME_TRACE
#include <MNN/AutoTime.hpp>
#include <MNN/ErrorCode.hpp>
#include <MNN/HalideRuntime.h>
#include <MNN/ImageProcess.hpp>
#include <MNN/Interpreter.hpp>
#include <MNN/MNNDefine.h>
#include <MNN/MNNForwardType.h>
#include <MNN/Matrix.h>
#include <MNN/Rect.h>
#include <MNN/Tensor.hpp>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <memory>
#include <string>
#include <vector>

// notrace.cpp (built without MNN_OPEN_TIME_TRACE)
int untracedScope(uint64_t* elapsedUs);

static int gFailures = 0;

#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (!(cond)) {                                                      \
            ++gFailures;                                                    \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                   \
            fprintf(stderr, "\n");                                          \
        }                                                                   \
    } while (0)

namespace {

struct Npy {
    std::vector<int> shape;
    std::vector<float> data;
};

// a little-endian float32 C-order .npy (format 1.0 / 2.0)
bool readNpy(const char* path, Npy* out) {
    FILE* f = fopen(path, "rb");
    if (!f) {
        return false;
    }
    std::vector<char> bytes;
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
        bytes.insert(bytes.end(), buf, buf + n);
    }
    fclose(f);
    if (bytes.size() < 10 || memcmp(bytes.data(), "\x93NUMPY", 6) != 0) {
        return false;
    }
    const unsigned char* u = (const unsigned char*)bytes.data();
    size_t headerLen, headerStart;
    if (u[6] == 1) {
        headerLen = u[8] | (u[9] << 8);
        headerStart = 10;
    } else {
        if (bytes.size() < 12) {
            return false;
        }
        headerLen = u[8] | (u[9] << 8) | ((size_t)u[10] << 16) | ((size_t)u[11] << 24);
        headerStart = 12;
    }
    if (headerStart + headerLen > bytes.size()) {
        return false;
    }
    const std::string header(bytes.data() + headerStart, headerLen);
    if (header.find("'<f4'") == std::string::npos || header.find("'fortran_order': False") == std::string::npos) {
        return false;
    }
    const size_t open = header.find('(', header.find("'shape'"));
    const size_t close = header.find(')', open);
    if (open == std::string::npos || close == std::string::npos) {
        return false;
    }
    out->shape.clear();
    size_t count = 1;
    for (const char* p = header.c_str() + open + 1; p < header.c_str() + close;) {
        char* end;
        const long v = strtol(p, &end, 10);
        if (end == p) {
            ++p;
            continue;
        }
        out->shape.push_back((int)v);
        count *= (size_t)v;
        p = end;
    }
    const size_t dataStart = headerStart + headerLen;
    if (bytes.size() - dataStart != count * sizeof(float)) {
        return false;
    }
    out->data.resize(count);
    memcpy(out->data.data(), bytes.data() + dataStart, count * sizeof(float));
    return true;
}

// runs AUTOTIME in a scope with stdout sent to a temporary file; returns what was printed
std::string tracedScopeOutput(int* autotimeLine) {
    fflush(stdout);
    FILE* tmp = tmpfile();
    if (!tmp) {
        return "";
    }
    const int saved = dup(1);
    dup2(fileno(tmp), 1);
    {
        *autotimeLine = __LINE__ + 1;
        AUTOTIME;
        usleep(2000);
    }
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    std::string text;
    rewind(tmp);
    char buf[256];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), tmp)) > 0) {
        text.append(buf, n);
    }
    fclose(tmp);
    return text;
}

// the session's input shape with batch b
std::vector<int> withBatch(std::vector<int> shape, int b) {
    if (!shape.empty()) {
        shape[0] = b;
    }
    return shape;
}

// copies a float NCHW host buffer into the session input (which has that shape)
bool feed(MNN::Tensor* input, const std::vector<float>& values) {
    MNN::Tensor host(input, MNN::Tensor::CAFFE);
    if ((size_t)host.elementSize() != values.size()) {
        return false;
    }
    memcpy(host.host<float>(), values.data(), values.size() * sizeof(float));
    return input->copyFromHostTensor(&host);
}

std::vector<float> fetch(const MNN::Tensor* output) {
    MNN::Tensor host(output, MNN::Tensor::CAFFE);
    if (!output->copyToHostTensor(&host)) {
        return {};
    }
    return std::vector<float>(host.host<float>(), host.host<float>() + host.elementSize());
}

double maxAbsDiff(const float* a, const float* b, size_t n) {
    double m = 0.0;
    for (size_t i = 0; i < n; ++i) {
        m = fmax(m, fabs((double)a[i] - (double)b[i]));
    }
    return m;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2 && argc != 4) {
        fprintf(stderr, "usage: mnn_client model.mnn [input.npy expected.npy]\n");
        return 2;
    }
    // ---- MNNDefine.h: the version macros and the library agree
    MNN_PRINT("MNN %s (headers %d.%d.%d)\n", MNN::getVersion(), MNN_VERSION_MAJOR, MNN_VERSION_MINOR,
              MNN_VERSION_PATCH);
    CHECK(strcmp(MNN::getVersion(), MNN_VERSION) == 0, "library %s, headers %s", MNN::getVersion(), MNN_VERSION);
    char composed[32];
    snprintf(composed, sizeof(composed), "%d.%d.%d", MNN_VERSION_MAJOR, MNN_VERSION_MINOR, MNN_VERSION_PATCH);
    CHECK(strcmp(composed, MNN_VERSION) == 0, "%s vs %s", composed, MNN_VERSION);

    // ---- AutoTime.hpp: AUTOTIME prints "<func>, <line>, cost time: <ms> ms" at scope end
    int line = 0;
    const std::string traced = tracedScopeOutput(&line);
    char func[64] = {0};
    int printedLine = -1;
    double ms = -1.0;
    CHECK(sscanf(traced.c_str(), "%63[^,], %d, cost time: %lf ms", func, &printedLine, &ms) == 3, "printed '%s'",
          traced.c_str());
    CHECK(strcmp(func, "tracedScopeOutput") == 0 && printedLine == line && ms >= 2.0 && ms < 5000.0,
          "printed '%s', expected function tracedScopeOutput, line %d, >= 2 ms", traced.c_str(), line);
    uint64_t untracedUs = 0;
    CHECK(untracedScope(&untracedUs) == 0, "AUTOTIME without MNN_OPEN_TIME_TRACE");
    CHECK(untracedUs >= 1000 && untracedUs < 5000000, "Timer::durationInUs %llu us for a 1 ms sleep",
          (unsigned long long)untracedUs);
    MNN::Timer total;

    // ---- Interpreter.hpp + MNNForwardType.h: a CPU session at Precision_High
    std::unique_ptr<MNN::Interpreter, void (*)(MNN::Interpreter*)> net(MNN::Interpreter::createFromFile(argv[1]),
                                                                       MNN::Interpreter::destroy);
    if (!net) {
        fprintf(stderr, "FAIL: createFromFile %s\n", argv[1]);
        return 1;
    }
    MNN::BackendConfig backend;
    backend.precision = MNN::BackendConfig::Precision_High;
    backend.memory = MNN::BackendConfig::Memory_Normal;
    backend.power = MNN::BackendConfig::Power_Normal;
    MNN::ScheduleConfig config;
    config.type = MNN_FORWARD_CPU;
    config.backupType = MNN_FORWARD_CPU;
    config.numThread = 2;
    config.backendConfig = &backend;
    MNN::Session* session = net->createSession(config);
    if (!session) {
        fprintf(stderr, "FAIL: createSession\n");
        return 1;
    }
    MNN::Tensor* input = net->getSessionInput(session, nullptr);
    CHECK(input != nullptr, "no input");
    if (!input) {
        return 1;
    }
    // ---- Tensor.hpp + HalideRuntime.h
    CHECK(input->getType() == halide_type_of<float>(), "input type code %d bits %d", (int)input->getType().code,
          (int)input->getType().bits);
    CHECK(input->getType().code == halide_type_float && input->getType().bits == 32, "float32 input");
    CHECK(input->dimensions() == 4 && input->buffer().dimensions == 4, "4-D input, got %d", input->dimensions());
    const std::vector<int> shape1 = withBatch(input->shape(), 1);
    const int c = shape1.size() == 4 ? shape1[1] : 0, h = shape1.size() == 4 ? shape1[2] : 0,
              w = shape1.size() == 4 ? shape1[3] : 0;
    CHECK(c == 3 && h > 0 && w > 0, "an RGB NCHW input, got %d x %d x %d", c, h, w);
    if (gFailures) {
        return 1;
    }
    const size_t image = (size_t)c * h * w;

    // input A: the .npy (or a ramp); input B: an RGBA image through ImageProcess
    std::vector<float> a(image);
    Npy npyIn, npyOut;
    const bool withFiles = argc == 4;
    if (withFiles) {
        CHECK(readNpy(argv[2], &npyIn) && npyIn.shape == shape1, "reading %s as float32 of the input's shape", argv[2]);
        CHECK(readNpy(argv[3], &npyOut), "reading %s as float32", argv[3]);
        if (gFailures) {
            return 1;
        }
        a = npyIn.data;
    } else {
        for (size_t i = 0; i < image; ++i) {
            a[i] = (float)((int)(i % 17) - 8) / 8.0f;
        }
    }

    // ---- ImageProcess.hpp + Matrix.h + Rect.h: a 2w x 2h RGBA image, halved (nearest, which
    // reads source pixel (2x + 0.5, 2y + 0.5) rounded: (2x + 1, 2y + 1)), RGB, (v - mean) * normal
    const int iw = 2 * w, ih = 2 * h;
    std::vector<uint8_t> rgba((size_t)iw * ih * 4);
    for (int y = 0; y < ih; ++y) {
        for (int x = 0; x < iw; ++x) {
            uint8_t* p = &rgba[((size_t)y * iw + x) * 4];
            p[0] = (uint8_t)((x * 7 + y * 3) & 255);
            p[1] = (uint8_t)((x * 5 + 11 * y + 40) & 255);
            p[2] = (uint8_t)((255 - x * 3 + y) & 255);
            p[3] = 255;
        }
    }
    const float mean[3] = {123.675f, 116.28f, 103.53f}, normal[3] = {1 / 58.395f, 1 / 57.12f, 1 / 57.375f};
    MNN::CV::ImageProcess::Config pc;
    pc.filterType = MNN::CV::NEAREST;
    pc.sourceFormat = MNN::CV::RGBA;
    pc.destFormat = MNN::CV::RGB;
    pc.wrap = MNN::CV::CLAMP_TO_EDGE;
    memcpy(pc.mean, mean, sizeof(mean));
    memcpy(pc.normal, normal, sizeof(normal));
    std::unique_ptr<MNN::CV::ImageProcess, void (*)(MNN::CV::ImageProcess*)> process(MNN::CV::ImageProcess::create(pc),
                                                                                     MNN::CV::ImageProcess::destroy);
    CHECK(process != nullptr, "ImageProcess::create");
    CHECK(MNN::CV::ImageProcess::formatChannels(MNN::CV::RGB) == 3, "RGB has 3 channels");
    // destination -> source: the rect of the output onto the rect of the image
    MNN::CV::Matrix m;
    CHECK(m.setRectToRect(MNN::CV::Rect::MakeWH((float)w, (float)h), MNN::CV::Rect::MakeWH((float)iw, (float)ih),
                          MNN::CV::Matrix::kFill_ScaleToFit),
          "setRectToRect");
    CHECK(fabsf(m.getScaleX() - 2.0f) < 1e-6f && fabsf(m.getScaleY() - 2.0f) < 1e-6f, "scale %f %f", m.getScaleX(),
          m.getScaleY());
    m.preTranslate(0.5f, 0.5f);  // pixel centres
    MNN::CV::Point corner = MNN::CV::Point::Make(0.0f, 0.0f);
    m.mapPoints(&corner, 1);
    CHECK(fabsf(corner.fX - 1.0f) < 1e-6f && fabsf(corner.fY - 1.0f) < 1e-6f, "maps (0, 0) to (%f, %f)", corner.fX,
          corner.fY);
    process->setMatrix(m);
    std::unique_ptr<MNN::Tensor> fromImage(MNN::Tensor::create<float>(shape1, nullptr, MNN::Tensor::CAFFE));
    CHECK(process->convert(rgba.data(), iw, ih, 0, fromImage.get()) == MNN::NO_ERROR, "convert into NCHW");
    std::vector<float> b(fromImage->host<float>(), fromImage->host<float>() + image);
    double convertErr = 0.0;
    for (int ch = 0; ch < c; ++ch) {
        for (int y = 0; y < h; ++y) {
            for (int x = 0; x < w; ++x) {
                const uint8_t* p = &rgba[((size_t)(2 * y + 1) * iw + (2 * x + 1)) * 4];
                const double want = ((double)p[ch] - mean[ch]) * normal[ch];
                convertErr = fmax(convertErr, fabs(want - b[((size_t)ch * h + y) * w + x]));
            }
        }
    }
    CHECK(convertErr < 1e-4, "ImageProcess output off by %g", convertErr);
    // bad input gets an error code, not a crash
    CHECK(process->convert(nullptr, iw, ih, 0, fromImage.get()) == MNN::INVALID_VALUE, "null source refused");

    // ---- batch 1: A, then B (callbacks count the ops and see their names and types)
    net->resizeTensor(input, shape1);
    net->resizeSession(session);
    CHECK(feed(input, a), "feeding A");
    int opsBefore = 0, opsAfter = 0;
    bool namesKnown = true;
    MNN::TensorCallBackWithInfo before = [&](const std::vector<MNN::Tensor*>&, const MNN::OperatorInfo* info) {
        ++opsBefore;
        namesKnown = namesKnown && info && !info->name().empty() && !info->type().empty();
        return true;
    };
    MNN::TensorCallBackWithInfo after = [&](const std::vector<MNN::Tensor*>&, const MNN::OperatorInfo*) {
        ++opsAfter;
        return true;
    };
    const MNN::ErrorCode code = net->runSessionWithCallBackInfo(session, before, after);
    CHECK(code == MNN::NO_ERROR, "runSessionWithCallBackInfo returned %d", (int)code);
    CHECK(opsBefore > 0 && opsBefore == opsAfter && namesKnown, "callbacks: %d before, %d after", opsBefore, opsAfter);
    MNN::Tensor* output = net->getSessionOutput(session, nullptr);
    CHECK(output != nullptr, "no output");
    if (!output) {
        return 1;
    }
    const std::vector<float> outA = fetch(output);
    const size_t perImage = outA.size();
    CHECK(perImage > 0, "empty output");
    if (withFiles) {
        CHECK(npyOut.data.size() == perImage, "expected %zu values, got %zu", npyOut.data.size(), perImage);
        if (npyOut.data.size() == perImage) {
            const double err = maxAbsDiff(outA.data(), npyOut.data.data(), perImage);
            CHECK(err < 1e-4, "batch 1 output off the expected by %g", err);
        }
    }
    float flops = 0.0f, memory = 0.0f;
    CHECK(net->getSessionInfo(session, MNN::Interpreter::FLOPS, &flops) && flops > 0.0f, "FLOPS %f", flops);
    CHECK(net->getSessionInfo(session, MNN::Interpreter::MEMORY, &memory) && memory > 0.0f, "MEMORY %f", memory);
    CHECK(feed(input, b), "feeding B");
    CHECK(net->runSession(session) == MNN::NO_ERROR, "runSession B");
    const std::vector<float> outB = fetch(output);
    CHECK(outB.size() == perImage && maxAbsDiff(outA.data(), outB.data(), perImage) > 1e-6,
          "different inputs gave the same output");

    // ---- batch 2: [A, B] in one run equals the two batch-1 runs
    net->resizeTensor(input, withBatch(shape1, 2));
    net->resizeSession(session);
    CHECK(input->batch() == 2 && input->shape() == withBatch(shape1, 2), "input batch %d", input->batch());
    std::vector<float> ab(a);
    ab.insert(ab.end(), b.begin(), b.end());
    CHECK(feed(input, ab), "feeding [A, B]");
    CHECK(net->runSession(session) == MNN::NO_ERROR, "runSession at batch 2");
    output = net->getSessionOutput(session, nullptr);
    const std::vector<float> out2 = fetch(output);
    CHECK(output && output->batch() == 2 && out2.size() == 2 * perImage, "batch 2 output of %zu values", out2.size());
    if (out2.size() == 2 * perImage) {
        const double e0 = maxAbsDiff(out2.data(), outA.data(), perImage);
        const double e1 = maxAbsDiff(out2.data() + perImage, outB.data(), perImage);
        CHECK(e0 < 1e-5 && e1 < 1e-5, "batch 2 against batch 1: %g, %g", e0, e1);
    }

    // ---- ErrorCode.hpp: a shape the model cannot take fails with a code, the session stays usable
    std::unique_ptr<MNN::Tensor> wrong(MNN::Tensor::create<float>({1, c + 1, h, w}, nullptr, MNN::Tensor::CAFFE));
    net->resizeTensor(input, {1, c + 1, h, w});
    net->resizeSession(session);
    const MNN::ErrorCode bad = net->runSession(session);
    CHECK(bad != MNN::NO_ERROR, "a %d-channel input ran", c + 1);
    net->resizeTensor(input, shape1);
    net->resizeSession(session);
    CHECK(feed(input, a) && net->runSession(session) == MNN::NO_ERROR, "batch 1 after the bad shape");
    const std::vector<float> again = fetch(net->getSessionOutput(session, nullptr));
    CHECK(again.size() == perImage && maxAbsDiff(again.data(), outA.data(), perImage) < 1e-6,
          "batch 1 after batch 2 and the bad shape differs");
    CHECK(net->releaseSession(session), "releaseSession");

    const uint64_t us = total.durationInUs();
    CHECK(us > 0, "Timer");
    if (gFailures) {
        fprintf(stderr, "%d check(s) failed\n", gFailures);
        return 1;
    }
    printf("output elements %zu per image (batch 1 and 2 agree%s), %d ops, %.3f MFLOPs, %.1f ms\n", perImage,
           withFiles ? ", batch 1 matches expected" : "", opsBefore, flops, us / 1000.0);
    printf("client OK\n");
    return 0;
}
