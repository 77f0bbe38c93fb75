// Loads a model through the installed headers and library, runs it on ones, prints the output.
#include <MNN/Interpreter.hpp>
#include <math.h>
#include <stdio.h>
#include <memory>

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: mnn_client model.mnn\n");
        return 2;
    }
    printf("MNN %s\n", MNN::getVersion());
    std::unique_ptr<MNN::Interpreter> net(MNN::Interpreter::createFromFile(argv[1]));
    if (!net) {
        return 1;
    }
    MNN::ScheduleConfig config;
    auto session = net->createSession(config);
    if (!session) {
        return 1;
    }
    auto input = net->getSessionInput(session, nullptr);
    std::unique_ptr<MNN::Tensor> host(new MNN::Tensor(input, MNN::Tensor::CAFFE));
    for (int i = 0; i < host->elementSize(); ++i) {
        host->host<float>()[i] = 1.0f;
    }
    input->copyFromHostTensor(host.get());
    if (net->runSession(session) != MNN::NO_ERROR) {
        return 1;
    }
    auto output = net->getSessionOutput(session, nullptr);
    std::unique_ptr<MNN::Tensor> out(new MNN::Tensor(output, MNN::Tensor::CAFFE));
    output->copyToHostTensor(out.get());
    double sum = 0;
    for (int i = 0; i < out->elementSize(); ++i) {
        sum += out->host<float>()[i];
    }
    printf("output elements %d, sum %.6f\n", out->elementSize(), sum);
    return std::isfinite(sum) ? 0 : 1;
}
