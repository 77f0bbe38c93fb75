// Graph -> .mnn bytes (FlatBuffers object API), with optional fp16 / int8 weight compression.
#ifndef MNN_CONVERTER_WRITER_HPP
#define MNN_CONVERTER_WRITER_HPP

#include <MNNConverter.hpp>
#include "Graph.hpp"

namespace MNN {
namespace Convert {

/** compresses weights in place as the options ask (fp16 / int8 per channel) */
void compressWeights(Graph& g, const Options& options);
/** packs the graph (unused tensors dropped, names kept) */
std::vector<uint8_t> writeModel(Graph& g, const Options& options, const std::string& producer);
/** the graph as a NetT (moves ops and constants out of g) */
std::unique_ptr<Schema::NetT> toNet(Graph& g);

}  // namespace Convert
}  // namespace MNN
#endif
