// Helpers for the NN op tests (Convolution, Pooling, normalisations, Softmax, MatMul...).
#ifndef MNN_TEST_OPS_NNTESTUTILS_HPP
#define MNN_TEST_OPS_NNTESTUTILS_HPP

#include <gtest/gtest.h>
#include <MNN/Interpreter.hpp>
#include <stdio.h>
#include <stdlib.h>
#include <map>
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
    if (getenv("MNN_TEST_SHOW_LOG")) {
        fprintf(stderr, "%s", log.c_str());
    }
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

/** one operand of a single-op model: a graph input (fed with `data` by runSingleOp) or a constant */
struct Operand {
    std::string name;
    std::vector<int> dims;
    std::vector<float> data;
    bool constant = false;
};

/** a model with one op named "op": operands in order ("" name = optional input left out) */
template <typename ParamT>
std::vector<uint8_t> singleOpModel(Schema::OpType type, const std::vector<Operand>& ins,
                                   const std::vector<std::string>& outs, const ParamT* param) {
    ModelBuilder mb;
    std::vector<std::string> names;
    for (auto& in : ins) {
        names.push_back(in.name);
        if (in.name.empty()) {
            continue;
        }
        if (in.constant) {
            mb.constant(in.name, in.dims, in.data);
        } else {
            mb.input(in.name, in.dims);
        }
    }
    auto op = mb.op(type, "op", names, outs);
    if (param) {
        ParamT copy = *param;
        op->param.Set(copy);
    }
    for (auto& o : outs) {
        mb.output(o);
    }
    return mb.finish();
}

template <typename ParamT>
RunResult runSingleOp(Schema::OpType type, const std::vector<Operand>& ins, const std::vector<std::string>& outs,
                      const ParamT* param) {
    auto model = singleOpModel(type, ins, outs, param);
    std::vector<std::unique_ptr<Tensor>> keep;
    std::map<std::string, const Tensor*> feeds;
    for (auto& in : ins) {
        if (!in.name.empty() && !in.constant) {
            keep.emplace_back(makeTensor(in.dims, in.data));
            feeds[in.name] = keep.back().get();
        }
    }
    return runModel(model, feeds);
}

} // namespace Test
} // namespace MNN
#endif
