#include "TestUtils.hpp"
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <random>

namespace MNN {
namespace Test {

bool hasSanitizerReport(const std::string& output) {
    static const char* marks[] = {"ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error: ",
                                  "WARNING: ThreadSanitizer", "ERROR: ThreadSanitizer"};
    for (auto m : marks) {
        if (output.find(m) != std::string::npos) {
            return true;
        }
    }
    return false;
}

std::string tempDir(const std::string& tag) {
    const char* base = getenv("TMPDIR");
    std::string dir = std::string(base ? base : "/tmp") + "/mnn_test_" + tag + "_" + std::to_string(getpid());
    auto info = ::testing::UnitTest::GetInstance()->current_test_info();
    if (info) {
        dir += std::string("_") + info->test_suite_name() + "_" + info->name();
    }
    mkdir(dir.c_str(), 0755);
    return dir;
}

std::vector<float> randomFloats(size_t n, unsigned seed, float lo, float hi) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> d(lo, hi);
    std::vector<float> v(n);
    for (auto& x : v) {
        x = d(gen);
    }
    return v;
}

::testing::AssertionResult allClose(const float* a, const float* b, size_t n, float atol, float rtol) {
    for (size_t i = 0; i < n; ++i) {
        bool bothNan = std::isnan(a[i]) && std::isnan(b[i]);
        if (bothNan) {
            continue;
        }
        if (std::isinf(b[i]) && a[i] == b[i]) {
            continue;
        }
        if (!(fabsf(a[i] - b[i]) <= atol + rtol * fabsf(b[i]))) {
            return ::testing::AssertionFailure() << "element " << i << ": got " << a[i] << ", expected " << b[i]
                                                 << " (of " << n << ")";
        }
    }
    return ::testing::AssertionSuccess();
}

::testing::AssertionResult allClose(const std::vector<float>& a, const std::vector<float>& b, float atol, float rtol) {
    if (a.size() != b.size()) {
        return ::testing::AssertionFailure() << "sizes differ: " << a.size() << " vs " << b.size();
    }
    return allClose(a.data(), b.data(), a.size(), atol, rtol);
}

::testing::AssertionResult tensorClose(const Tensor* a, const std::vector<float>& b, float atol, float rtol) {
    if (!a) {
        return ::testing::AssertionFailure() << "tensor is null";
    }
    if ((size_t)a->elementSize() != b.size()) {
        return ::testing::AssertionFailure() << "element counts differ: " << a->elementSize() << " vs " << b.size();
    }
    return allClose(a->host<float>(), b.data(), b.size(), atol, rtol);
}

} // namespace Test
} // namespace MNN
