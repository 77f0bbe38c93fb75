// Reference Slice, Transpose, DepthToSpace, SpaceToDepth, Pad, Tile, Expand: every output
// element comes from one source element (or a fill value) found through per-axis offset tables
// (DataCopy::gatherAxes). Tables are built at onResize when every parameter input is a
// constant, else at execute from the values (computed inputs only hold values then).
#include <type_traits>
#include "CPUDataCopy.hpp"
#include "shape/ShapeDataOps.hpp"

namespace MNN {
using Tables = std::vector<std::vector<int64_t>>;

class CPUTableOp : public Execution {
public:
    CPUTableOp(Backend* b, const Schema::Op* op) : Execution(b) {
        mName = CPUUtils::opName(op);
        mType = op->type();
        if (auto p = op->param_as_TransposeParam()) {
            if (p->perm()) {
                mPerm.assign(p->perm()->begin(), p->perm()->end());
            }
        }
        if (auto p = op->param_as_SpaceDepthParam()) {
            mBlock = p->blockSize();
            mMode = p->mode();
        }
        if (auto p = op->param_as_AxisParam()) {
            if (p->axes()) {
                mAxes.assign(p->axes()->begin(), p->axes()->end());
            }
        }
        if (auto p = op->param_as_PadParam()) {
            mMode = (int)p->mode();
            mPadValue = p->value();
            if (p->pads()) {
                mParamPads.assign(p->pads()->begin(), p->pads()->end());
            }
        }
    }
    ErrorCode onResize(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        mReady = false;
        bool constant = true;
        for (size_t i = 1; i < inputs.size(); ++i) {
            if (inputs[i] && TensorUtils::describe(inputs[i])->usage != Tensor::InsideDescribe::CONSTANT) {
                constant = false;
            }
        }
        mParams.prepare(inputs, 1);
        if (constant) {
            auto code = build(inputs, outputs);
            if (code != NO_ERROR) {
                return code;
            }
            mReady = true;
        }
        return NO_ERROR;
    }
    ErrorCode onExecute(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) override {
        // computed parameters: the tables are rebuilt only when their values change
        if (!mReady && mParams.changed(inputs)) {
            auto code = build(inputs, outputs);
            if (code != NO_ERROR) {
                mParams.prepare(inputs, 1);  // build again next time
                return code;
            }
        }
        const int es = DataCopy::elementSize(outputs[0]);
        uint8_t fill[8] = {0};
        if (mType == Schema::OpType::Pad) {
            padFill(inputs, outputs[0], fill);
        }
        DataCopy::gatherAxes(outputs[0]->host<uint8_t>(), inputs[0]->host<uint8_t>(), mViewDims, mTables, es, fill);
        return NO_ERROR;
    }

private:
    void padFill(const std::vector<Tensor*>& inputs, const Tensor* out, uint8_t* fill) const {
        if (ShapeUtils::has(inputs, 2)) {
            ::memcpy(fill, inputs[2]->host<uint8_t>(), DataCopy::elementSize(out));
            return;
        }
        const double v = mPadValue;
        DataCopy::dispatchNumeric(out->getType(), [&](auto* tag) {
            using T = typename std::remove_pointer<decltype(tag)>::type;
            T t = (T)v;
            ::memcpy(fill, &t, sizeof(T));
        });
    }
    ErrorCode fail(const char* what) const {
        return error(INPUT_DATA_ERROR, "op %s (%s): %s", mName.c_str(), Schema::EnumNameOpType(mType), what);
    }
    // sets mViewDims (a row-major view of the output) and mTables
    ErrorCode build(const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
        auto in = TensorUtils::shape(inputs[0]);
        auto out = TensorUtils::shape(outputs[0]);
        auto stride = CPUUtils::strides(in);
        const int rank = (int)in.size();
        mViewDims = out;
        mTables.assign(out.size(), {});
        switch (mType) {
            case Schema::OpType::Slice: {
                DataOps::SliceRange r;
                auto msg = DataOps::computeSlice(in, DataOps::valuesOf(inputs, 1), DataOps::valuesOf(inputs, 2),
                                                 DataOps::valuesOf(inputs, 3), DataOps::valuesOf(inputs, 4), &r);
                if (!msg.empty() || r.outDims != out) {
                    return fail("slice parameters do not match the output shape");
                }
                mTables = DataCopy::stridedTables(out, r.start, r.step, stride);
                return NO_ERROR;
            }
            case Schema::OpType::Transpose: {
                std::vector<int> perm = mPerm;
                if (perm.empty()) {
                    for (int i = rank - 1; i >= 0; --i) {
                        perm.push_back(i);
                    }
                }
                if ((int)perm.size() != rank) {
                    return fail("perm does not match the input rank");
                }
                return permuted(in, perm);
            }
            case Schema::OpType::DepthToSpace: {
                const int b = mBlock, n = in[0], c = in[1] / (mBlock * mBlock), h = in[2], w = in[3];
                if (mMode == 0) {
                    return permuted({n, b, b, c, h, w}, {0, 3, 4, 1, 5, 2});
                }
                return permuted({n, c, b, b, h, w}, {0, 1, 4, 2, 5, 3});
            }
            case Schema::OpType::SpaceToDepth: {
                const int b = mBlock;
                return permuted({in[0], in[1], in[2] / b, b, in[3] / b, b}, {0, 3, 5, 1, 2, 4});
            }
            case Schema::OpType::Pad:
            case Schema::OpType::CenterCropPad:
                return padTables(inputs, in, out, stride);
            case Schema::OpType::Tile:
                for (int d = 0; d < rank; ++d) {
                    mTables[d].resize(out[d]);
                    for (int i = 0; i < out[d]; ++i) {
                        mTables[d][i] = (int64_t)(i % in[d]) * stride[d];
                    }
                }
                return NO_ERROR;
            case Schema::OpType::Expand: {
                const int shift = (int)out.size() - rank;
                if (shift < 0) {
                    return fail("output rank below input rank");
                }
                for (int d = 0; d < (int)out.size(); ++d) {
                    mTables[d].assign(out[d], 0);
                    const int s = d - shift;
                    if (s >= 0 && in[s] != 1) {
                        if (in[s] != out[d]) {
                            return fail("input does not broadcast to the output");
                        }
                        for (int i = 0; i < out[d]; ++i) {
                            mTables[d][i] = (int64_t)i * stride[s];
                        }
                    }
                }
                return NO_ERROR;
            }
            default:
                return fail("unsupported op");
        }
    }
    ErrorCode permuted(const std::vector<int>& view, const std::vector<int>& perm) {
        auto stride = CPUUtils::strides(view);
        mViewDims.resize(perm.size());
        std::vector<int64_t> start(perm.size(), 0), step(perm.size(), 1), s(perm.size());
        for (size_t i = 0; i < perm.size(); ++i) {
            mViewDims[i] = view[perm[i]];
            s[i] = stride[perm[i]];
        }
        mTables = DataCopy::stridedTables(mViewDims, start, step, s);
        return NO_ERROR;
    }
    ErrorCode padTables(const std::vector<Tensor*>& inputs, const std::vector<int>& in, const std::vector<int>& out,
                        const std::vector<int64_t>& stride) {
        DataOps::PadRange r;
        std::string msg;
        if (mType == Schema::OpType::CenterCropPad) {
            std::vector<int64_t> pads;
            msg = DataOps::centerCropPads(in, ShapeUtils::readInts(inputs[1]), mAxes, &pads);
            if (msg.empty()) {
                msg = DataOps::computePad(in, pads, {}, 0, &r);
            }
        } else {
            auto pads = ShapeUtils::has(inputs, 1) ? ShapeUtils::readInts(inputs[1]) : mParamPads;
            msg = DataOps::computePad(in, pads, DataOps::valuesOf(inputs, 3), mMode, &r);
        }
        if (!msg.empty() || r.outDims != out) {
            return fail("pads do not match the output shape");
        }
        for (size_t d = 0; d < in.size(); ++d) {
            mTables[d].resize(out[d]);
            const int64_t len = r.len[d];
            for (int i = 0; i < out[d]; ++i) {
                int64_t x = i - r.before[d];
                if (x < 0 || x >= len) {
                    switch (mMode) {
                        case 1:  // reflect (period 2*(len-1))
                            if (len == 1) {
                                x = 0;
                            } else {
                                const int64_t p = 2 * (len - 1);
                                x = ((x % p) + p) % p;
                                x = x < len ? x : p - x;
                            }
                            break;
                        case 2:  // edge
                            x = x < 0 ? 0 : len - 1;
                            break;
                        case 3:  // wrap
                            x = ((x % len) + len) % len;
                            break;
                        default:
                            x = -1;
                            break;
                    }
                }
                mTables[d][i] = x < 0 ? -1 : (r.lo[d] + x) * stride[d];
            }
        }
        return NO_ERROR;
    }

    std::string mName;
    Schema::OpType mType;
    std::vector<int> mPerm;
    std::vector<int64_t> mParamPads;
    std::vector<int64_t> mAxes;
    int mBlock = 1;
    int mMode = 0;
    float mPadValue = 0;
    bool mReady = false;
    CPUUtils::ParamBytes mParams;
    std::vector<int> mViewDims;
    Tables mTables;
};

static Execution* createTableOp(const std::vector<Tensor*>&, const std::vector<Tensor*>&, const Schema::Op* op,
                                Backend* backend) {
    return new CPUTableOp(backend, op);
}
} // namespace MNN

MNN_REGISTER_CPU(Slice, createTableOp)
MNN_REGISTER_CPU(Transpose, createTableOp)
MNN_REGISTER_CPU(DepthToSpace, createTableOp)
MNN_REGISTER_CPU(SpaceToDepth, createTableOp)
MNN_REGISTER_CPU(Pad, createTableOp)
MNN_REGISTER_CPU(Tile, createTableOp)
MNN_REGISTER_CPU(Expand, createTableOp)
MNN_REGISTER_CPU(CenterCropPad, createTableOp)
