// --fp16 sensitivity pass: which weights may be stored as fp16 without moving the outputs more
// than Options::fp16Target. Rounding a weight to fp16 perturbs it by up to 2^-11 relative; deep
// nets amplify the perturbations of early layers (random-weight resnet50: 2e-2 relative at the
// output with every weight fp16, most of it from a few small stem / first-stage layers).
//
// The pass runs the float model on the CPU backend (Precision_High) with a calibration input, then
// with every candidate fp16 (done when that is within the target), then with each candidate alone
// fp16. Assuming the independent per-layer errors add in quadrature (scaled by the measured total),
// it keeps float the candidates with the largest squared error per byte saved until the estimate
// meets the target, and confirms the choice with a measured run (keeping more until it does).
#ifndef MNN_CONVERTER_FP16_SENSITIVITY_HPP
#define MNN_CONVERTER_FP16_SENSITIVITY_HPP

#include <MNNConverter.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace MNN {
namespace Convert {

struct Fp16Plan {
    std::vector<bool> keepFloat;  // per candidate
    Fp16Report report;
    std::string error;  // Options::calibrationInputs do not fit the model: the conversion fails
};

/**
 * model: the packed float model; candidates: indices into its Net::constants that --fp16 would
 * store as fp16 (float data, uncompressed). When the model cannot be run, every candidate goes
 * fp16 and report.note says why; calibration inputs that do not fit the model set error.
 */
Fp16Plan planFp16(const std::vector<uint8_t>& model, const std::vector<int>& candidates, const Options& options);

/** max over float outputs of max|a - b| / max|b| (max|a - b| when b is all zero); inf on NaN */
double relativeError(const std::vector<std::vector<float>>& a, const std::vector<std::vector<float>>& b);

}  // namespace Convert
}  // namespace MNN
#endif
