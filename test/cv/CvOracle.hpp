// Test helper: runs test/cv/cv_oracle.py (OpenCV through Debian's /usr/bin/python3) on raw files.
#ifndef MNN_TEST_CV_ORACLE_HPP
#define MNN_TEST_CV_ORACLE_HPP

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace CvOracle {

inline std::string scriptPath() {
    return std::string(MNN_SOURCE_DIR) + "/test/cv/cv_oracle.py";
}

/** true when /usr/bin/python3 can import cv2 and numpy (checked once) */
inline bool available() {
    static int state = -1;
    if (state < 0) {
        std::string cmd = "/usr/bin/python3 -c 'import cv2, numpy' >/dev/null 2>&1";
        state           = ::system(cmd.c_str()) == 0 ? 1 : 0;
    }
    return state == 1;
}

#define SKIP_WITHOUT_OPENCV()                                                                          \
    do {                                                                                               \
        if (!CvOracle::available()) {                                                                  \
            GTEST_SKIP() << "OpenCV oracle unavailable: /usr/bin/python3 cannot import cv2 (install "  \
                            "Debian's python3-opencv)";                                                \
        }                                                                                              \
    } while (0)

/** a private temporary folder for this process */
inline std::string tempDir() {
    static std::string dir;
    if (dir.empty()) {
        char tmpl[] = "/tmp/mnn_cv_test_XXXXXX";
        char* d     = ::mkdtemp(tmpl);
        dir         = d ? d : "/tmp";
    }
    return dir;
}

inline std::string tempFile(const std::string& stem) {
    static int counter = 0;
    std::ostringstream os;
    os << tempDir() << "/" << stem << "_" << ::getpid() << "_" << counter++ << ".raw";
    return os.str();
}

inline void writeFile(const std::string& path, const void* data, size_t bytes) {
    std::ofstream f(path, std::ios::binary);
    f.write((const char*)data, (std::streamsize)bytes);
}

template <typename T>
inline std::vector<T> readFile(const std::string& path) {
    std::ifstream f(path, std::ios::binary | std::ios::ate);
    std::vector<T> out;
    if (!f) {
        return out;
    }
    size_t n = (size_t)f.tellg();
    out.resize(n / sizeof(T));
    f.seekg(0);
    f.read((char*)out.data(), (std::streamsize)(out.size() * sizeof(T)));
    return out;
}

/** runs the oracle with `args`; returns the exit status */
inline int run(const std::string& args) {
    std::string cmd = "/usr/bin/python3 " + scriptPath() + " " + args;
    int rc          = ::system(cmd.c_str());
    if (rc != 0) {
        fprintf(stderr, "oracle failed (%d): %s\n", rc, cmd.c_str());
    }
    return rc;
}

inline std::vector<uint8_t> randomImage(size_t bytes, unsigned seed) {
    std::mt19937 gen(seed);
    std::uniform_int_distribution<int> dist(0, 255);
    std::vector<uint8_t> v(bytes);
    for (auto& b : v) {
        b = (uint8_t)dist(gen);
    }
    return v;
}

} // namespace CvOracle

#endif

#ifndef MNN_TEST_CV_ORACLE_BATCH
#define MNN_TEST_CV_ORACLE_BATCH
namespace CvOracle {
/**
 * Collects oracle commands and runs them in one python process (starting python + cv2 costs
 * about a second on a loaded machine). add() returns the output file path to read after run().
 */
class Batch {
public:
    /** `args` must end with the output path returned by output() */
    std::string output(const std::string& stem) {
        auto p = tempFile(stem);
        mFiles.push_back(p);
        return p;
    }
    std::string input(const std::string& stem, const void* data, size_t bytes) {
        auto p = tempFile(stem);
        writeFile(p, data, bytes);
        mFiles.push_back(p);
        return p;
    }
    void add(const std::string& args) {
        mLines += args + "\n";
    }
    int run() {
        auto list = tempFile("batch");
        writeFile(list, mLines.data(), mLines.size());
        mFiles.push_back(list);
        return CvOracle::run("batch " + list);
    }
    ~Batch() {
        for (auto& f : mFiles) {
            ::remove(f.c_str());
        }
    }

private:
    std::string mLines;
    std::vector<std::string> mFiles;
};
} // namespace CvOracle
#endif
