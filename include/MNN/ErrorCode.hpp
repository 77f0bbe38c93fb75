#ifndef MNN_ERRORCODE_HPP
#define MNN_ERRORCODE_HPP

namespace MNN {
enum ErrorCode {
#ifdef NO_ERROR
#undef NO_ERROR
#endif
    NO_ERROR = 0,
    OUT_OF_MEMORY = 1,
    NOT_SUPPORT = 2,
    COMPUTE_SIZE_ERROR = 3,
    NO_EXECUTION = 4,
    INVALID_VALUE = 5,

    // User error
    INPUT_DATA_ERROR = 10,
    CALL_BACK_STOP = 11,

    // Op resize error
    TENSOR_NOT_SUPPORT = 20,
    TENSOR_NEED_DIVIDE = 21,
};
} // namespace MNN

#endif
