// Helpers for the NN op tests (Convolution, Pooling, normalisations, Softmax, MatMul...).
#ifndef MNN_TEST_OPS_NNTESTUTILS_HPP
#define MNN_TEST_OPS_NNTESTUTILS_HPP

#include <gtest/gtest.h>
#include <MNN/Interpreter.hpp>
#include <memory>
#include <string>
#include <vector>
#include "ModelBuilder.hpp"
#include "TestUtils.hpp"

namespace MNN {
namespace Test {

/** createSession must fail and log one line containing every needle (op name, tensor, problem) */
inline void expectCreateFails(const std::vector<uint8_t>& model, const std::vector<std::string>& needles) {
    ::testing::internal::CaptureStderr();
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    Session* session = nullptr;
    if (net) {
        ScheduleConfig config;
        session = net->createSession(config);
    }
    std::string log = ::testing::internal::GetCapturedStderr();
    ASSERT_NE(net, nullptr);
    EXPECT_EQ(session, nullptr);
    // the first line that names the op carries the whole message
    std::string line;
    size_t pos = log.find("op ");
    if (pos != std::string::npos) {
        size_t end = log.find('\n', pos);
        line = log.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    }
    for (auto& n : needles) {
        EXPECT_NE(line.find(n), std::string::npos) << "missing '" << n << "' in log line: " << line
                                                    << "\nfull log:\n" << log;
    }
}

/** MFLOPs the session reports for one run */
inline float sessionMFlops(const std::vector<uint8_t>& model) {
    std::unique_ptr<Interpreter> net(Interpreter::createFromBuffer(model.data(), model.size()));
    if (!net) {
        return -1.0f;
    }
    ScheduleConfig config;
    auto session = net->createSession(config);
    if (!session) {
        return -1.0f;
    }
    float mflops = -1.0f;
    net->getSessionInfo(session, Interpreter::FLOPS, &mflops);
    return mflops;
}

inline std::vector<float> toVector(const Tensor* t) {
    return std::vector<float>(t->host<float>(), t->host<float>() + t->elementSize());
}

inline int64_t countOf(const std::vector<int>& dims) {
    int64_t n = 1;
    for (auto d : dims) {
        n *= d;
    }
    return n;
}

} // namespace Test
} // namespace MNN
#endif
