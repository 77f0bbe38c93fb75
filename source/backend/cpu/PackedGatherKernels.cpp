// Packed-layout (NC16HW16) channel gather, scalar tier (also the SSE4.1 tier's kernel): each
// output lane is copied from its entry's lane, lanes of no entry are written as 0.
#include <stdint.h>
#include <string.h>
#include "CPUCoreFunctions.hpp"

namespace MNN {
void pgather__scalar(const PackedGatherBlock* b) {
    int from[16], lane[16];
    bool identity = b->entries == 1 && b->mask[0] == 0xffffu;
    for (int l = 0; l < 16; ++l) {
        from[l] = -1;
        lane[l] = 0;
        for (int e = 0; e < b->entries; ++e) {
            if ((b->mask[e] >> l) & 1u) {
                from[l] = e;
                lane[l] = b->perm[e * 16 + l];
            }
        }
        identity = identity && lane[l] == l;
    }
    if (identity) {
        ::memcpy(b->y, b->src[0], (size_t)b->count * 16 * sizeof(float));
        return;
    }
    for (int64_t p = 0; p < b->count; ++p) {
        float* y = b->y + p * 16;
        for (int l = 0; l < 16; ++l) {
            y[l] = from[l] < 0 ? 0.0f : b->src[from[l]][p * 16 + lane[l]];
        }
    }
}
}  // namespace MNN
