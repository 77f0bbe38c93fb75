// Floating point -> integer conversion without undefined behaviour (shared by Cast-like paths).
#ifndef MNN_CPU_SATURATECAST_HPP
#define MNN_CPU_SATURATECAST_HPP

#include <math.h>
#include <limits>

namespace MNN {
namespace CPUUtils {

/** a double as integer type I the way Cast does it: truncated toward zero, saturated at I's range,
 *  NaN -> 0 (a plain C conversion of NaN or of an out-of-range value is undefined behaviour) */
template <typename I>
inline I saturateFromDouble(double v) {
    if (v != v) {
        return 0;
    }
    const double t = trunc(v);
    if (t <= (double)std::numeric_limits<I>::lowest()) {
        return std::numeric_limits<I>::lowest();
    }
    if (t >= (double)std::numeric_limits<I>::max()) {
        return std::numeric_limits<I>::max();
    }
    return (I)t;
}

}  // namespace CPUUtils
}  // namespace MNN
#endif
