// The README's example: load a model, feed an input from a .npy file, run, print the result and,
// when given the reference output (.npy from PyTorch), compare with it.
//   mnn_hello model.mnn input.npy [expected.npy]
#include <MNN/Interpreter.hpp>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

// Reads a little-endian float32 C-order .npy file (the only kind this example needs).
static bool readNpy(const char* path, std::vector<int>& shape, std::vector<float>& data) {
    FILE* f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return false;
    }
    char magic[8];
    bool ok = fread(magic, 1, 8, f) == 8 && memcmp(magic, "\x93NUMPY", 6) == 0;
    uint32_t headerLen = 0;
    if (ok) {
        if (magic[6] == 1) {
            uint16_t h = 0;
            ok = fread(&h, 2, 1, f) == 1;
            headerLen = h;
        } else {
            ok = fread(&headerLen, 4, 1, f) == 1;
        }
    }
    std::string header(headerLen, '\0');
    ok = ok && fread(&header[0], 1, headerLen, f) == headerLen;
    if (!ok || header.find("'<f4'") == std::string::npos || header.find("'fortran_order': False") == std::string::npos) {
        fprintf(stderr, "%s: not a float32 C-order .npy file\n", path);
        fclose(f);
        return false;
    }
    auto p = header.find("'shape': (");
    size_t count = 1;
    shape.clear();
    for (p += 10; p < header.size() && header[p] != ')';) {
        if (header[p] >= '0' && header[p] <= '9') {
            int v = atoi(header.c_str() + p);
            shape.push_back(v);
            count *= (size_t)v;
            while (p < header.size() && header[p] >= '0' && header[p] <= '9') {
                ++p;
            }
        } else {
            ++p;
        }
    }
    data.resize(count);
    ok = fread(data.data(), sizeof(float), count, f) == count;
    fclose(f);
    if (!ok) {
        fprintf(stderr, "%s: truncated data\n", path);
    }
    return ok;
}

int main(int argc, char** argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s model.mnn input.npy [expected.npy]\n", argv[0]);
        return 2;
    }
    std::vector<int> inShape;
    std::vector<float> inData;
    if (!readNpy(argv[2], inShape, inData)) {
        return 1;
    }
    // 1. load the model and create a session (shape inference, kernels, memory plan)
    std::unique_ptr<MNN::Interpreter> net(MNN::Interpreter::createFromFile(argv[1]));
    if (!net) {
        return 1;
    }
    MNN::ScheduleConfig config;
    config.numThread = 2;
    MNN::BackendConfig backendConfig;
    backendConfig.precision = MNN::BackendConfig::Precision_High;
    config.backendConfig = &backendConfig;
    MNN::Session* session = net->createSession(config);
    if (!session) {
        return 1;
    }
    // 2. resize the input to the data's shape, then copy the data in (NCHW host tensor)
    MNN::Tensor* input = net->getSessionInput(session, nullptr);
    if (input->shape() != inShape) {
        net->resizeTensor(input, inShape);
        net->resizeSession(session);
    }
    std::unique_ptr<MNN::Tensor> host(MNN::Tensor::create<float>(inShape, inData.data(), MNN::Tensor::CAFFE));
    input->copyFromHostTensor(host.get());
    // 3. run and read the output
    if (net->runSession(session) != MNN::NO_ERROR) {
        fprintf(stderr, "runSession failed\n");
        return 1;
    }
    MNN::Tensor* output = net->getSessionOutput(session, nullptr);
    std::unique_ptr<MNN::Tensor> result(new MNN::Tensor(output, MNN::Tensor::CAFFE));
    output->copyToHostTensor(result.get());
    const float* out = result->host<float>();
    const int n = result->elementSize();
    float flops = 0, memory = 0;
    net->getSessionInfo(session, MNN::Interpreter::FLOPS, &flops);
    net->getSessionInfo(session, MNN::Interpreter::MEMORY, &memory);
    printf("model %s: %.3f MFLOPs, %.2f MB\n", argv[1], flops, memory);
    printf("output shape:");
    for (auto d : result->shape()) {
        printf(" %d", d);
    }
    printf("\n");
    std::vector<int> order(n);
    for (int i = 0; i < n; ++i) {
        order[i] = i;
    }
    int k = std::min(5, n);
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int a, int b) { return out[a] > out[b]; });
    printf("top-%d:", k);
    for (int i = 0; i < k; ++i) {
        printf(" [%d] %.6f", order[i], out[order[i]]);
    }
    printf("\n");
    if (argc < 4) {
        return 0;
    }
    std::vector<int> refShape;
    std::vector<float> ref;
    if (!readNpy(argv[3], refShape, ref) || (int)ref.size() != n) {
        fprintf(stderr, "reference output does not match the output size\n");
        return 1;
    }
    double maxDiff = 0, maxRef = 0;
    for (int i = 0; i < n; ++i) {
        maxDiff = std::max(maxDiff, (double)fabsf(out[i] - ref[i]));
        maxRef = std::max(maxRef, (double)fabsf(ref[i]));
    }
    double rel = maxDiff / (maxRef > 0 ? maxRef : 1);
    printf("vs PyTorch: max|diff| / max|ref| = %.3g -> %s\n", rel, rel <= 1e-4 ? "MATCH" : "MISMATCH");
    return rel <= 1e-4 ? 0 : 1;
}
