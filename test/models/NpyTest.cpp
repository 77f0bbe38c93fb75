// Npy reader / writer (tools/common/Npy.hpp) against the .npy format: byte layouts written out by
// hand from the format description (magic, version 1.0, little-endian header length, a Python-dict
// header padded with spaces to a 64-byte boundary and ended by '\n', then C-order data).
#include <gtest/gtest.h>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include "Npy.hpp"
#include "TestUtils.hpp"

using namespace MNN;

static std::vector<uint8_t> npyBytes(const std::string& dict, const std::vector<uint8_t>& data) {
    std::string h = dict;
    size_t total = 10 + h.size() + 1;
    h.append((64 - total % 64) % 64, ' ');
    h += '\n';
    std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (uint8_t)(h.size() & 0xff),
                                (uint8_t)(h.size() >> 8)};
    out.insert(out.end(), h.begin(), h.end());
    out.insert(out.end(), data.begin(), data.end());
    return out;
}

TEST(Npy, ReadsFloatMatrix) {
    // 1.5, -2, 3, 4.25 as little-endian IEEE singles
    std::vector<uint8_t> data = {0, 0, 0xc0, 0x3f, 0, 0, 0, 0xc0, 0, 0, 0x40, 0x40, 0, 0, 0x88, 0x40};
    auto bytes = npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", data);
    ASSERT_EQ(bytes.size(), 144u);  // what numpy 1.24 writes for this array
    Npy::Array a;
    std::string err;
    ASSERT_TRUE(Npy::readBuffer(bytes.data(), bytes.size(), &a, &err)) << err;
    EXPECT_TRUE(a.is<float>());
    EXPECT_EQ(a.shape, (std::vector<int64_t>{2, 2}));
    EXPECT_EQ(a.data<float>()[0], 1.5f);
    EXPECT_EQ(a.data<float>()[1], -2.0f);
    EXPECT_EQ(a.data<float>()[3], 4.25f);
}

TEST(Npy, ReadsIntsBoolScalarAndEmpty) {
    Npy::Array a;
    std::string err;
    std::vector<uint8_t> i64 = {1, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                3, 0, 0, 0, 0, 0, 0, 0};
    auto b1 = npyBytes("{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", i64);
    ASSERT_TRUE(Npy::readBuffer(b1.data(), b1.size(), &a, &err)) << err;
    EXPECT_TRUE(a.is<int64_t>());
    EXPECT_EQ(a.shape, (std::vector<int64_t>{3}));
    EXPECT_EQ(a.toDouble(), (std::vector<double>{1, -2, 3}));

    auto b2 = npyBytes("{'descr': '|b1', 'fortran_order': False, 'shape': (), }", {1});
    ASSERT_TRUE(Npy::readBuffer(b2.data(), b2.size(), &a, &err)) << err;
    EXPECT_TRUE(a.is<bool>());
    EXPECT_TRUE(a.shape.empty());
    EXPECT_EQ(a.count(), 1);
    EXPECT_EQ(a.raw, (std::vector<uint8_t>{1}));

    auto b3 = npyBytes("{'descr': '|u1', 'fortran_order': False, 'shape': (0, 3), }", {});
    ASSERT_TRUE(Npy::readBuffer(b3.data(), b3.size(), &a, &err)) << err;
    EXPECT_TRUE(a.is<uint8_t>());
    EXPECT_EQ(a.count(), 0);
}

TEST(Npy, WritesWhatNumpyWrites) {
    float v[4] = {1.5f, -2.0f, 3.0f, 4.25f};
    auto a = Npy::Array::of<float>({2, 2}, v);
    std::vector<uint8_t> data(16);
    std::memcpy(data.data(), v, 16);
    EXPECT_EQ(Npy::serialize(a), npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", data));
    int32_t s = 7;
    auto b = Npy::Array::of<int32_t>({1}, &s);
    EXPECT_EQ(Npy::serialize(b),
              npyBytes("{'descr': '<i4', 'fortran_order': False, 'shape': (1,), }", {7, 0, 0, 0}));
    auto c = Npy::Array::of<int32_t>({}, &s);
    EXPECT_EQ(Npy::serialize(c),
              npyBytes("{'descr': '<i4', 'fortran_order': False, 'shape': (), }", {7, 0, 0, 0}));
}

TEST(Npy, FileRoundTrip) {
    std::vector<double> v = {0.25, -1e300, 7};
    auto a = Npy::Array::of<double>({3, 1}, v.data());
    std::string path = MNN::Test::tempDir("npy") + "/x.npy";
    std::string err;
    ASSERT_TRUE(Npy::write(path, a, &err)) << err;
    Npy::Array b;
    ASSERT_TRUE(Npy::read(path, &b, &err)) << err;
    EXPECT_TRUE(b.is<double>());
    EXPECT_EQ(b.shape, a.shape);
    EXPECT_EQ(b.toDouble(), v);
    std::remove(path.c_str());
}

TEST(Npy, RejectsBadFiles) {
    Npy::Array a;
    std::string err;
    std::vector<uint8_t> junk = {'n', 'o', 't', ' ', 'n', 'p', 'y', 0, 0, 0, 0};
    EXPECT_FALSE(Npy::readBuffer(junk.data(), junk.size(), &a, &err));
    EXPECT_NE(err.find("magic"), std::string::npos);
    // data shorter than the shape says
    auto shortData = npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", {0, 0, 0, 0});
    EXPECT_FALSE(Npy::readBuffer(shortData.data(), shortData.size(), &a, &err));
    EXPECT_NE(err.find("truncated"), std::string::npos);
    auto fortran = npyBytes("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", {0, 0, 0, 0});
    EXPECT_FALSE(Npy::readBuffer(fortran.data(), fortran.size(), &a, &err));
    auto complex = npyBytes("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", std::vector<uint8_t>(8));
    EXPECT_FALSE(Npy::readBuffer(complex.data(), complex.size(), &a, &err));
    // a header length past the end of the buffer
    auto cut = npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", {});
    cut.resize(40);
    EXPECT_FALSE(Npy::readBuffer(cut.data(), cut.size(), &a, &err));
    EXPECT_FALSE(Npy::read("/nonexistent/dir/x.npy", &a, &err));
}
