// Tensor API: creation, layouts (NCHW / NHWC / NC4HW4) and copies, checked element by element.
#include <MNN/Tensor.hpp>
#include <string.h>
#include "TestUtils.hpp"

using namespace MNN;

TEST(Tensor, CreateShapeAndSizes) {
    std::unique_ptr<Tensor> t(Tensor::create<float>({2, 3, 4, 5}, nullptr, Tensor::CAFFE));
    ASSERT_NE(t, nullptr);
    EXPECT_EQ(t->dimensions(), 4);
    EXPECT_EQ(t->elementSize(), 120);
    EXPECT_EQ(t->size(), 480);
    EXPECT_EQ(t->batch(), 2);
    EXPECT_EQ(t->channel(), 3);
    EXPECT_EQ(t->height(), 4);
    EXPECT_EQ(t->width(), 5);
    EXPECT_EQ(t->stride(0), 60);
    EXPECT_EQ(t->length(3), 5);
    EXPECT_EQ(t->getType(), halide_type_of<float>());
    std::unique_ptr<Tensor> nhwc(Tensor::create<int32_t>({2, 4, 5, 3}, nullptr, Tensor::TENSORFLOW));
    EXPECT_EQ(nhwc->channel(), 3);
    EXPECT_EQ(nhwc->height(), 4);
    EXPECT_EQ(nhwc->width(), 5);
    // rank 0 and zero-size
    std::unique_ptr<Tensor> scalar(Tensor::create<float>({}, nullptr));
    EXPECT_EQ(scalar->elementSize(), 1);
    EXPECT_EQ(scalar->dimensions(), 0);
    std::unique_ptr<Tensor> empty(Tensor::create<float>({0, 3}, nullptr));
    ASSERT_NE(empty, nullptr);
    EXPECT_EQ(empty->elementSize(), 0);
    // invalid shapes are refused
    EXPECT_EQ(Tensor::create<float>({-1, 3}, nullptr), nullptr);
    EXPECT_EQ(Tensor::create<float>({1 << 30, 1 << 30, 1 << 30}, nullptr), nullptr);
    std::unique_ptr<Tensor> dev(Tensor::createDevice<float>({1, 2}));
    EXPECT_EQ(dev->host<float>(), nullptr);
}

TEST(Tensor, LayoutConversionsRoundTrip) {
    const int N = 2, C = 5, H = 3, W = 2;
    std::vector<float> v(N * C * H * W);
    for (size_t i = 0; i < v.size(); ++i) {
        v[i] = (float)i;
    }
    std::unique_ptr<Tensor> nchw(Tensor::create<float>({N, C, H, W}, v.data(), Tensor::CAFFE));
    // NHWC copy: element (n,c,h,w) lands at ((n*H+h)*W+w)*C+c
    std::unique_ptr<Tensor> nhwc(new Tensor(nchw.get(), Tensor::TENSORFLOW));
    EXPECT_EQ(nhwc->shape(), (std::vector<int>{N, H, W, C}));
    ASSERT_TRUE(nchw->copyToHostTensor(nhwc.get()));
    // NC4HW4: ((n*ceil(C/4) + c/4)*H*W + h*W+w)*4 + c%4, padding zero
    std::unique_ptr<Tensor> c4(new Tensor(nchw.get(), Tensor::CAFFE_C4));
    EXPECT_EQ(c4->size(), (int)(N * 8 * H * W * sizeof(float)));
    ASSERT_TRUE(nchw->copyToHostTensor(c4.get()));
    for (int n = 0; n < N; ++n)
        for (int c = 0; c < C; ++c)
            for (int h = 0; h < H; ++h)
                for (int w = 0; w < W; ++w) {
                    float e = v[((n * C + c) * H + h) * W + w];
                    EXPECT_EQ(nhwc->host<float>()[((n * H + h) * W + w) * C + c], e);
                    EXPECT_EQ(c4->host<float>()[((n * 2 + c / 4) * H * W + h * W + w) * 4 + c % 4], e);
                }
    EXPECT_EQ(c4->host<float>()[(0 * H * W + 0) * 4 + 1 + 4 * H * W], 0.0f);  // c = 5 is padding
    // back to NCHW from both
    std::unique_ptr<Tensor> back1(new Tensor(nchw.get(), Tensor::CAFFE));
    std::unique_ptr<Tensor> back2(new Tensor(nchw.get(), Tensor::CAFFE));
    ASSERT_TRUE(back1->copyFromHostTensor(nhwc.get()));
    ASSERT_TRUE(back2->copyFromHostTensor(c4.get()));
    EXPECT_EQ(0, memcmp(back1->host<float>(), v.data(), v.size() * 4));
    EXPECT_EQ(0, memcmp(back2->host<float>(), v.data(), v.size() * 4));
    // mismatched shape or type is refused
    std::unique_ptr<Tensor> wrong(Tensor::create<float>({N, C, H, W + 1}, nullptr, Tensor::CAFFE));
    EXPECT_FALSE(nchw->copyToHostTensor(wrong.get()));
    std::unique_ptr<Tensor> wrongType(Tensor::create<int32_t>({N, C, H, W}, nullptr, Tensor::CAFFE));
    EXPECT_FALSE(nchw->copyToHostTensor(wrongType.get()));
}

TEST(Tensor, CloneHostFromDeviceMapAndPrint) {
    std::vector<float> v = {1, 2, 3, 4, 5, 6};
    std::unique_ptr<Tensor> a(Tensor::create<float>({2, 3}, v.data(), Tensor::CAFFE));
    std::unique_ptr<Tensor> deep(Tensor::clone(a.get(), true));
    std::unique_ptr<Tensor> shallow(Tensor::clone(a.get(), false));
    EXPECT_EQ(0, memcmp(deep->host<float>(), v.data(), 24));
    EXPECT_EQ(shallow->shape(), a->shape());
    std::unique_ptr<Tensor> host(Tensor::createHostTensorFromDevice(a.get(), true));
    EXPECT_EQ(0, memcmp(host->host<float>(), v.data(), 24));
    void* p = a->map(Tensor::MAP_TENSOR_READ, Tensor::CAFFE);
    EXPECT_EQ(p, a->host<void>());
    a->unmap(Tensor::MAP_TENSOR_READ, Tensor::CAFFE, p);
    EXPECT_EQ(a->wait(Tensor::MAP_TENSOR_READ, true), 0);
    ::testing::internal::CaptureStdout();
    a->print();
    auto printed = ::testing::internal::GetCapturedStdout();
    EXPECT_NE(printed.find("6.000000"), std::string::npos);
    a->setType((int)6 /* DT_INT32 */);
    EXPECT_EQ(a->getType(), halide_type_of<int32_t>());
}
