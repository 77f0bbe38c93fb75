// Comparison helpers and temporary folders for tests.
#ifndef MNN_TEST_TESTUTILS_HPP
#define MNN_TEST_TESTUTILS_HPP

#include <MNN/Tensor.hpp>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace MNN {
namespace Test {

/** a fresh folder unique to this process and test, removed by the caller if wanted */
std::string tempDir(const std::string& tag);

/** true when a child process's output holds a sanitizer report (ASan, LSan, UBSan, TSan): tests that
 *  run the tools check it, since such a child exits with 1 like an ordinary refusal does */
bool hasSanitizerReport(const std::string& output);

/** deterministic pseudo-random floats in [lo, hi) */
std::vector<float> randomFloats(size_t n, unsigned seed, float lo = -1.0f, float hi = 1.0f);

/** max |a-b| <= atol + rtol*|b| elementwise; reports the first mismatch */
::testing::AssertionResult allClose(const float* a, const float* b, size_t n, float atol = 1e-5f,
                                    float rtol = 1e-4f);
::testing::AssertionResult allClose(const std::vector<float>& a, const std::vector<float>& b, float atol = 1e-5f,
                                    float rtol = 1e-4f);
::testing::AssertionResult tensorClose(const Tensor* a, const std::vector<float>& b, float atol = 1e-5f,
                                       float rtol = 1e-4f);

} // namespace Test
} // namespace MNN
#endif
