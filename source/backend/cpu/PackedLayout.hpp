// The CPU backend's packed activation layout NC16HW16 ("NCHWc", c = kCpuPack): a 4-D float tensor
// [N, C, H, W] is stored as [N][ceil(C / 16)][H][W][16]; element (n, c, h, w) lives at
//   ((n * blocks + c / 16) * H * W + h * W + w) * 16 + c % 16.
// The Session keeps a tensor packed when its producer and every consumer can work on the layout
// (Backend::onPackedSupport); at the edges the convolution-family ops convert. Lanes past C in the
// last block hold unspecified values: kernels that mix channels read only the first C lanes.
// This header is not included by the ISA files (their kernels take plain pointers).
#ifndef MNN_CPU_PACKEDLAYOUT_HPP
#define MNN_CPU_PACKEDLAYOUT_HPP

#include <MNN/Tensor.hpp>
#include <stdint.h>
#include <vector>
#include "ThreadPool.hpp"
#include "core/Schema.hpp"

namespace MNN {

constexpr int kCpuPack = 16;

/** blocks of kCpuPack channels that hold `channels` */
int packedBlocks(int channels);
/** whether t is a 4-D float32 tensor in the CPU's packed layout */
bool isCpuPacked(const Tensor* t);
/** marks t (4-D) as packed (true) or plain NCHW (false); sizes follow from the layout */
void setCpuPacked(Tensor* t, bool packed);

/** NCHW -> NC16HW16 over `batch` images of `channels` x `plane`; padding lanes are set to 0 */
void packNC16(const float* src, float* dst, int batch, int channels, int64_t plane);
/** NC16HW16 -> NCHW */
void unpackNC16(const float* src, float* dst, int batch, int channels, int64_t plane);

/**
 * NCHW <-> NC16HW16 of one (image, block) per index (index = image * blocks + block), over
 * batch * blocks (runRepack)
 */
struct PackedRepackJob {
    const float* src;
    float* dst;
    int channels, blocks;
    int64_t plane;
    bool pack;  // true: src plain, dst packed
    void operator()(int i) const {
        const int n = i / blocks, b = i % blocks;
        const int lanes = channels - b * kCpuPack < kCpuPack ? channels - b * kCpuPack : kCpuPack;
        const int64_t plainOff = ((int64_t)n * channels + (int64_t)b * kCpuPack) * plane;
        const int64_t packedOff = (int64_t)i * plane * kCpuPack;
        if (pack) {
            packNC16(src + plainOff, dst + packedOff, 1, lanes, plane);
        } else {
            unpackNC16(src + packedOff, dst + plainOff, 1, lanes, plane);
        }
    }
};

/**
 * floats a copying task (the repack below, the channel gather) moves at least (parallelForItems):
 * smaller tasks cost more than they move
 */
constexpr double kCopyTaskFloats = 16384.0;

/** job over [0, batch * blocks) on pool, in tasks of at least kCopyTaskFloats */
inline void runRepack(ThreadPool* pool, const PackedRepackJob& job, int batch) {
    parallelForItems(pool, (int64_t)batch * job.blocks, (double)job.plane * kCpuPack, kCopyTaskFloats, job);
}

/** what Backend::onPackedSupport answers for the CPU (values of Backend::PackedSupport) */
int cpuPackedSupport(const Schema::Op* op, const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs);

} // namespace MNN
#endif
