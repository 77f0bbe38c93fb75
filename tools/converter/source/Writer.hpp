// Graph -> .mnn bytes (FlatBuffers object API), with optional fp16 / int8 weight compression.
#ifndef MNN_CONVERTER_WRITER_HPP
#define MNN_CONVERTER_WRITER_HPP

#include <MNNConverter.hpp>
#include "Graph.hpp"

namespace MNN {
namespace Convert {

/**
 * int8-quantises weights in place when the options ask; returns the constants (tensor ids) that
 * --fp16 may store as fp16 (writeModel decides which, Fp16Sensitivity.hpp)
 */
std::vector<int> compressWeights(Graph& g, const Options& options);
/** packs the graph (unused tensors dropped, names kept), weights compressed as the options ask */
std::vector<uint8_t> writeModel(Graph& g, const Options& options, const std::string& producer,
                                Fp16Report* fp16Report = nullptr);
/** the graph as a NetT (moves ops and constants out of g) */
std::unique_ptr<Schema::NetT> toNet(Graph& g);

}  // namespace Convert
}  // namespace MNN
#endif
