// Col2Im(input [N, C * prod(block), L], image_shape [n], block_shape [n]) -> [N, C, image_shape...],
// ConvParam dilations / strides / pads (begin..., end...). The values of image_shape and block_shape
// are read here; L must equal the number of block positions.
#include "ShapeUtils.hpp"

namespace MNN {

/** per-axis geometry; false with a message on invalid values */
static bool col2ImGeometry(const Schema::ConvParam* p, const std::vector<int64_t>& image,
                           const std::vector<int64_t>& block, std::vector<int64_t>* dil, std::vector<int64_t>* stride,
                           std::vector<int64_t>* pads, std::vector<int64_t>* blocks, std::string* err) {
    const size_t n = image.size();
    if (n == 0 || block.size() != n) {
        *err = "image_shape and block_shape must have the same non-zero length";
        return false;
    }
    auto attr = [&](const flatbuffers::Vector<int32_t>* v, size_t count, int64_t def, std::vector<int64_t>* out,
                    const char* name) {
        out->assign(count, def);
        if (v && v->size() > 0) {
            if (v->size() != count) {
                *err = std::string(name) + " has " + std::to_string(v->size()) + " values, expected " +
                       std::to_string(count);
                return false;
            }
            for (size_t i = 0; i < count; ++i) {
                (*out)[i] = v->Get(i);
            }
        }
        return true;
    };
    if (!attr(p ? p->dilations() : nullptr, n, 1, dil, "dilations") ||
        !attr(p ? p->strides() : nullptr, n, 1, stride, "strides") || !attr(p ? p->pads() : nullptr, 2 * n, 0, pads, "pads")) {
        return false;
    }
    blocks->assign(n, 0);
    for (size_t i = 0; i < n; ++i) {
        if (image[i] < 0 || block[i] <= 0 || (*dil)[i] <= 0 || (*stride)[i] <= 0 || (*pads)[i] < 0 ||
            (*pads)[i + n] < 0 || image[i] > 0x7fffffff) {
            *err = "axis " + std::to_string(i) + ": image, block, dilation, stride and pads must be positive";
            return false;
        }
        int64_t span = (*dil)[i] * (block[i] - 1) + 1;
        int64_t padded = image[i] + (*pads)[i] + (*pads)[i + n];
        if (padded < span) {
            *err = "axis " + std::to_string(i) + ": the block does not fit the padded image";
            return false;
        }
        (*blocks)[i] = (padded - span) / (*stride)[i] + 1;
    }
    return true;
}

static ErrorCode shapeCol2Im(const Schema::Op* op, const std::vector<Tensor*>& inputs, const std::vector<Tensor*>& outputs) {
    if (!ShapeUtils::has(inputs, 0) || !ShapeUtils::has(inputs, 1) || !ShapeUtils::has(inputs, 2) ||
        outputs.size() != 1) {
        return ShapeUtils::error(op, INVALID_VALUE, "needs input, image_shape, block_shape and 1 output");
    }
    auto X = TensorUtils::shape(inputs[0]);
    if (X.size() != 3) {
        return ShapeUtils::error(op, INVALID_VALUE, "input %s must be [N, C * prod(block), L]",
                                 TensorUtils::shapeString(X).c_str());
    }
    if (inputs[1]->getType().code != halide_type_int || inputs[2]->getType().code != halide_type_int) {
        return ShapeUtils::error(op, NOT_SUPPORT, "image_shape and block_shape must be int64");
    }
    if (inputs[0]->getType() != halide_type_of<float>()) {
        return ShapeUtils::error(op, NOT_SUPPORT, "input has type %s, only float32 is supported",
                                 TensorUtils::typeName(inputs[0]->getType()));
    }
    auto image = ShapeUtils::readInts(inputs[1]);
    auto block = ShapeUtils::readInts(inputs[2]);
    std::vector<int64_t> dil, stride, pads, blocks;
    std::string err;
    if (!col2ImGeometry(op->param_as_ConvParam(), image, block, &dil, &stride, &pads, &blocks, &err)) {
        return ShapeUtils::error(op, INVALID_VALUE, "%s", err.c_str());
    }
    int64_t kprod = 1, lprod = 1;
    for (size_t i = 0; i < image.size(); ++i) {
        kprod *= block[i];
        lprod *= blocks[i];
        if (kprod > 0x7fffffff || lprod > 0x7fffffff) {
            return ShapeUtils::error(op, INVALID_VALUE, "block or block count too large");
        }
    }
    if (X[1] % kprod != 0 || X[2] != lprod) {
        return ShapeUtils::error(op, INVALID_VALUE,
                                 "input %s: dim 1 must be a multiple of %lld and dim 2 equal %lld block positions",
                                 TensorUtils::shapeString(X).c_str(), (long long)kprod, (long long)lprod);
    }
    std::vector<int> out = {X[0], (int)(X[1] / kprod)};
    for (auto v : image) {
        out.push_back((int)v);
    }
    ShapeUtils::setOutput(outputs[0], out, inputs[0]->getType());
    return NO_ERROR;
}
} // namespace MNN

MNN_REGISTER_SHAPE(Col2Im, ShapeEntry{shapeCol2Im, nullptr, 0x6u})
