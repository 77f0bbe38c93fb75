// Shared parameter computations of the data-movement ops (see ShapeDataOps.hpp).
#include "ShapeDataOps.hpp"
#include <stdio.h>

namespace MNN {
namespace DataOps {

static std::string format(const char* fmt, long long a, long long b = 0, long long c = 0) {
    char buf[256];
    snprintf(buf, sizeof(buf), fmt, a, b, c);
    return buf;
}

bool normalizeAxes(const std::vector<int64_t>& axes, int rank, std::vector<int>* out) {
    out->clear();
    std::vector<bool> seen(rank > 0 ? rank : 0, false);
    for (auto a : axes) {
        if (a < -(int64_t)rank || a >= (int64_t)rank) {
            return false;
        }
        int n = (int)(a < 0 ? a + rank : a);
        if (seen[n]) {
            return false;
        }
        seen[n] = true;
        out->push_back(n);
    }
    return true;
}

std::string computeSlice(const std::vector<int>& dims, const std::vector<int64_t>& starts,
                         const std::vector<int64_t>& ends, const std::vector<int64_t>& axesIn,
                         const std::vector<int64_t>& stepsIn, SliceRange* out) {
    const int rank = (int)dims.size();
    const size_t n = starts.size();
    if (ends.size() != n) {
        return format("starts has %lld values but ends has %lld", (long long)n, (long long)ends.size());
    }
    if (!axesIn.empty() && axesIn.size() != n) {
        return format("axes has %lld values, starts %lld", (long long)axesIn.size(), (long long)n);
    }
    if (!stepsIn.empty() && stepsIn.size() != n) {
        return format("steps has %lld values, starts %lld", (long long)stepsIn.size(), (long long)n);
    }
    std::vector<int64_t> axes = axesIn;
    if (axes.empty()) {
        if ((int64_t)n > rank) {
            return format("%lld starts for a rank-%lld input", (long long)n, (long long)rank);
        }
        for (size_t i = 0; i < n; ++i) {
            axes.push_back((int64_t)i);
        }
    }
    std::vector<int> axesN;
    if (!normalizeAxes(axes, rank, &axesN)) {
        return format("axes out of range or repeated for a rank-%lld input", (long long)rank);
    }
    out->start.assign(rank, 0);
    out->step.assign(rank, 1);
    out->outDims = dims;
    for (size_t i = 0; i < n; ++i) {
        const int a = axesN[i];
        const int64_t step = stepsIn.empty() ? 1 : stepsIn[i];
        if (step == 0) {
            return format("step of axis %lld is 0", (long long)a);
        }
        const int64_t d = dims[a];
        int64_t s = starts[i];
        int64_t e = ends[i];
        if (s < 0) {
            s += d;
        }
        if (e < 0) {
            e += d;
        }
        int64_t len = 0;
        if (d == 0) {
            s = 0;
        } else if (step > 0) {
            s = s < 0 ? 0 : (s > d ? d : s);
            e = e < 0 ? 0 : (e > d ? d : e);
            len = e > s ? (e - s - 1) / step + 1 : 0;
        } else {
            s = s < 0 ? 0 : (s > d - 1 ? d - 1 : s);
            e = e < -1 ? -1 : (e > d - 1 ? d - 1 : e);
            // -step may overflow for INT64_MIN: compute in unsigned
            uint64_t mag = (uint64_t)(-(step + 1)) + 1u;
            len = s > e ? (int64_t)((uint64_t)(s - e - 1) / mag) + 1 : 0;
        }
        out->start[a] = s;
        out->step[a] = step;
        out->outDims[a] = (int)len;
    }
    return "";
}

std::string computePad(const std::vector<int>& dims, const std::vector<int64_t>& pads,
                       const std::vector<int64_t>& axesIn, int mode, PadRange* out) {
    const int rank = (int)dims.size();
    std::vector<int64_t> axes = axesIn;
    if (axes.empty()) {
        for (int i = 0; i < rank; ++i) {
            axes.push_back(i);
        }
    }
    std::vector<int> axesN;
    if (!normalizeAxes(axes, rank, &axesN)) {
        return format("axes out of range or repeated for a rank-%lld input", (long long)rank);
    }
    const size_t n = axesN.size();
    if (pads.size() != 2 * n) {
        return format("pads has %lld values, expected %lld (2 per axis)", (long long)pads.size(),
                      (long long)(2 * n));
    }
    out->lo.assign(rank, 0);
    out->before.assign(rank, 0);
    out->len.assign(dims.begin(), dims.end());
    out->outDims = dims;
    for (size_t i = 0; i < n; ++i) {
        const int a = axesN[i];
        const int64_t b = pads[i];
        const int64_t e = pads[i + n];
        const int64_t d = dims[a];
        if (b < -d || e < -d || b > 0x7fffffff || e > 0x7fffffff) {
            return format("pads %lld, %lld out of range for axis %lld", (long long)b, (long long)e, (long long)a);
        }
        const int64_t lo = b < 0 ? -b : 0;
        const int64_t hi = d - (e < 0 ? -e : 0);
        const int64_t len = hi - lo;
        if (len < 0) {
            return format("negative pads %lld, %lld crop more than the %lld elements of the axis", (long long)b,
                          (long long)e, (long long)d);
        }
        const int64_t before = b > 0 ? b : 0;
        const int64_t after = e > 0 ? e : 0;
        if (mode != 0 && len == 0 && (before > 0 || after > 0)) {
            return format("axis %lld is empty: only constant mode can pad it (mode %lld)", (long long)a,
                          (long long)mode);
        }
        const int64_t total = len + before + after;
        if (total > 0x7fffffff) {
            return format("padded axis %lld has %lld elements, over the limit", (long long)a, (long long)total);
        }
        out->lo[a] = lo;
        out->len[a] = len;
        out->before[a] = before;
        out->outDims[a] = (int)total;
    }
    return "";
}

std::string centerCropPads(const std::vector<int>& dims, const std::vector<int64_t>& shape,
                           const std::vector<int64_t>& axesIn, std::vector<int64_t>* pads) {
    const int rank = (int)dims.size();
    std::vector<int64_t> axes = axesIn;
    if (axes.empty()) {
        for (int i = 0; i < rank; ++i) {
            axes.push_back(i);
        }
    }
    std::vector<int> axesN;
    if (!normalizeAxes(axes, rank, &axesN)) {
        return format("axes out of range or repeated for a rank-%lld input", (long long)rank);
    }
    if (shape.size() != axesN.size()) {
        return format("shape has %lld values for %lld axes", (long long)shape.size(), (long long)axesN.size());
    }
    pads->assign(2 * rank, 0);
    for (size_t i = 0; i < axesN.size(); ++i) {
        const int a = axesN[i];
        const int64_t s = shape[i];
        const int64_t d = dims[a];
        if (s < 0 || s > 0x7fffffff) {
            return format("target size %lld of axis %lld is invalid", (long long)s, (long long)a);
        }
        // crop: start at floor((d - s) / 2); pad: floor((s - d) / 2) in front
        const int64_t diff = s - d;
        const int64_t front = diff >= 0 ? diff / 2 : -((-diff) / 2);
        (*pads)[a] = front;
        (*pads)[a + rank] = diff - front;
    }
    return "";
}

} // namespace DataOps
} // namespace MNN
