#include "ModelInfo.hpp"
#include <sstream>
#include "core/Schema.hpp"

namespace MNN {
namespace Convert {

static const Schema::Net* verifiedNet(const std::vector<uint8_t>& model) {
    flatbuffers::Verifier v(model.data(), model.size());
    if (!Schema::VerifyNetBuffer(v)) {
        return nullptr;
    }
    return Schema::GetNet(model.data());
}

std::map<std::string, int> modelOpCounts(const std::vector<uint8_t>& model) {
    std::map<std::string, int> c;
    auto net = verifiedNet(model);
    if (net && net->ops()) {
        for (auto op : *net->ops()) {
            c[Schema::EnumNameOpType(op->type())]++;
        }
    }
    return c;
}

std::string describeModel(const std::vector<uint8_t>& model) {
    std::ostringstream os;
    auto net = verifiedNet(model);
    if (!net) {
        return "invalid model buffer\n";
    }
    auto name = [&](int i) -> std::string {
        return net->tensorNames() && i >= 0 && i < (int)net->tensorNames()->size() ? net->tensorNames()->Get(i)->str()
                                                                                   : "?";
    };
    os << "bizCode: " << (net->bizCode() ? net->bizCode()->str() : "") << "\n";
    os << "producer: " << (net->producer() ? net->producer()->str() : "") << "\n";
    os << "inputs:\n";
    if (net->inputs()) {
        for (auto d : *net->inputs()) {
            os << "  " << name(d->tensorIndex()) << " " << Schema::EnumNameDataType(d->dataType()) << " [";
            if (d->dims()) {
                for (flatbuffers::uoffset_t i = 0; i < d->dims()->size(); ++i) {
                    int v = d->dims()->Get(i);
                    std::string sym = d->symbols() && i < d->symbols()->size() ? d->symbols()->Get(i)->str() : "";
                    os << (i ? "," : "") << (v < 0 ? (sym.empty() ? "?" : "{" + sym + "}") : std::to_string(v));
                }
            }
            os << "]\n";
        }
    }
    os << "outputs:";
    if (net->outputs()) {
        for (auto o : *net->outputs()) {
            os << " " << name(o);
        }
    }
    os << "\nops: " << (net->ops() ? net->ops()->size() : 0) << "\n";
    for (auto& kv : modelOpCounts(model)) {
        os << "  " << kv.first << ": " << kv.second << "\n";
    }
    size_t bytes = 0, fp16 = 0, int8 = 0, fp16Bytes = 0, floatWeights = 0, floatBytes = 0;
    if (net->constants()) {
        for (auto b : *net->constants()) {
            size_t n = b->raw() ? b->raw()->size() : 0;
            bytes += n;
            bool half = b->compression() == Schema::Compression::FP16;
            fp16 += half ? 1 : 0;
            fp16Bytes += half ? n : 0;
            int8 += b->compression() == Schema::Compression::INT8_PER_CHANNEL ? 1 : 0;
            // float tensors of rank >= 2 stored uncompressed (with --fp16: the ones kept float)
            if (b->compression() == Schema::Compression::NONE && b->dataType() == Schema::DataType::DT_FLOAT &&
                b->dims() && b->dims()->size() >= 2) {
                floatWeights++;
                floatBytes += n;
            }
        }
    }
    os << "constants: " << (net->constants() ? net->constants()->size() : 0) << " (" << bytes << " bytes; " << fp16
       << " fp16, " << int8 << " int8)\n";
    os << "weights (rank >= 2): " << fp16 << " fp16 (" << fp16Bytes << " bytes), " << floatWeights << " float ("
       << floatBytes << " bytes)\n";
    return os.str();
}

}  // namespace Convert
}  // namespace MNN
