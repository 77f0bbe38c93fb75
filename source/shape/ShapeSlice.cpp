// Slice (data, starts, ends, axes?, steps?) and Transpose / DepthToSpace / SpaceToDepth.
#include "ShapeDataOps.hpp"

namespace MNN {

static ErrorCode shapeSlice(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                            const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || !ShapeUtils::has(inputs, 2) ||
        outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs data, starts, ends and 1 output");
    }
    for (size_t i = 1; i < inputs.size() && i < 5; ++i) {
        if (inputs[i] && !DataOps::isIntegerType(inputs[i]->getType())) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %d (%s) must be int32/int64, got %s", (int)i,
                                     TensorUtils::describe(inputs[i])->name.c_str(),
                                     TensorUtils::typeName(inputs[i]->getType()));
        }
        if (inputs[i] && inputs[i]->dimensions() > 1) {
            return ShapeUtils::error(op, INVALID_VALUE, "input %d (%s) must be 1-D, got %s", (int)i,
                                     TensorUtils::describe(inputs[i])->name.c_str(),
                                     TensorUtils::shapeString(inputs[i]).c_str());
        }
    }
    DataOps::SliceRange r;
    auto msg = DataOps::computeSlice(TensorUtils::shape(inputs[0]), DataOps::valuesOf(inputs, 1),
                                     DataOps::valuesOf(inputs, 2), DataOps::valuesOf(inputs, 3),
                                     DataOps::valuesOf(inputs, 4), &r);
    if (!msg.empty()) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", msg.c_str());
    }
    ShapeUtils::setOutput(outputs[0], r.outDims, inputs[0]->getType());
    return NO_ERROR;
}

namespace DataOps {
/** the permutation of a Transpose: TransposeParam.perm, default reversed axes */
bool transposePerm(const Schema::Op* op, int rank, std::vector<int>* perm) {
    perm->clear();
    auto p = op->param_as_TransposeParam();
    if (p && p->perm() && p->perm()->size() > 0) {
        if ((int)p->perm()->size() != rank) {
            return false;
        }
        std::vector<bool> seen(rank, false);
        for (auto v : *p->perm()) {
            if (v < 0 || v >= rank || seen[v]) {
                return false;
            }
            seen[v] = true;
            perm->push_back(v);
        }
        return true;
    }
    for (int i = rank - 1; i >= 0; --i) {
        perm->push_back(i);
    }
    return true;
}
} // namespace DataOps

static ErrorCode shapeTranspose(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output");
    }
    auto dims = TensorUtils::shape(inputs[0]);
    std::vector<int> perm;
    if (!DataOps::transposePerm(op, (int)dims.size(), &perm)) {
        return ShapeUtils::error(op, INVALID_VALUE, "perm is not a permutation of the %d axes of %s",
                                 (int)dims.size(), TensorUtils::describe(inputs[0])->name.c_str());
    }
    std::vector<int> out(dims.size());
    for (size_t i = 0; i < perm.size(); ++i) {
        out[i] = dims[perm[i]];
    }
    ShapeUtils::setOutput(outputs[0], out, inputs[0]->getType());
    return NO_ERROR;
}

static ErrorCode shapeSpaceDepth(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                 const std::vector<Tensor*>& outputs, bool toSpace) {
    if (!ShapeUtils::has(inputs, 0) || outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs 1 input and 1 output");
    }
    auto p = op->param_as_SpaceDepthParam();
    const int b = p ? p->blockSize() : 0;
    if (b < 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "blockSize %d must be >= 1", b);
    }
    if (toSpace && p->mode() != 0 && p->mode() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "mode %d is not 0 (DCR) or 1 (CRD)", p->mode());
    }
    auto d = TensorUtils::shape(inputs[0]);
    if (d.size() != 4) {
        return ShapeUtils::error(op, INVALID_VALUE, "input %s must be 4-D NCHW, got %s",
                                 TensorUtils::describe(inputs[0])->name.c_str(), TensorUtils::shapeString(d).c_str());
    }
    std::vector<int> out;
    const int64_t bb = (int64_t)b * b;
    if (toSpace) {
        if (d[1] % bb != 0) {
            return ShapeUtils::error(op, INVALID_VALUE, "channels %d not divisible by blockSize^2 = %lld", d[1],
                                     (long long)bb);
        }
        if ((int64_t)d[2] * b > 0x7fffffff || (int64_t)d[3] * b > 0x7fffffff) {
            return ShapeUtils::error(op, INVALID_VALUE, "output too large");
        }
        out = {d[0], (int)(d[1] / bb), d[2] * b, d[3] * b};
    } else {
        if (d[2] % b != 0 || d[3] % b != 0) {
            return ShapeUtils::error(op, INVALID_VALUE, "height %d / width %d not divisible by blockSize %d", d[2],
                                     d[3], b);
        }
        if ((int64_t)d[1] * bb > 0x7fffffff) {
            return ShapeUtils::error(op, INVALID_VALUE, "output too large");
        }
        out = {d[0], (int)(d[1] * bb), d[2] / b, d[3] / b};
    }
    ShapeUtils::setOutput(outputs[0], out, inputs[0]->getType());
    return NO_ERROR;
}

static ErrorCode shapeDepthToSpace(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                   const std::vector<Tensor*>& outputs) {
    return shapeSpaceDepth(op, inputs, outputs, true);
}
static ErrorCode shapeSpaceToDepth(const Schema::Op* op, const std::vector<Tensor*>& inputs,
                                   const std::vector<Tensor*>& outputs) {
    return shapeSpaceDepth(op, inputs, outputs, false);
}
} // namespace MNN

MNN_REGISTER_SHAPE(Slice, ShapeEntry{shapeSlice, nullptr, 0x1Eu})
MNN_REGISTER_SHAPE(Transpose, ShapeEntry{shapeTranspose, nullptr, 0})
MNN_REGISTER_SHAPE(DepthToSpace, ShapeEntry{shapeDepthToSpace, nullptr, 0})
MNN_REGISTER_SHAPE(SpaceToDepth, ShapeEntry{shapeSpaceToDepth, nullptr, 0})
