#include <MNN/Interpreter.hpp>
#include <stdio.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#define MNN_MODEL_MMAP 1
#else
#define MNN_MODEL_MMAP 0
#endif
#include <algorithm>
#include <mutex>
#include "Macro.hpp"
#include "ModelValidator.hpp"
#include "Registry.hpp"
#include "Session.hpp"
#include "TensorUtils.hpp"

namespace MNN {

struct Content {
    /** the model bytes: `owned`, or a read-only private mapping of the model file */
    std::vector<uint8_t> owned;
    void* mapped = nullptr;
    size_t mappedSize = 0;
    const uint8_t* data() const {
        return mapped ? (const uint8_t*)mapped : owned.data();
    }
    size_t size() const {
        return mapped ? mappedSize : owned.size();
    }
    void unmap() {
#if MNN_MODEL_MMAP
        if (mapped) {
            ::munmap(mapped, mappedSize);
        }
#endif
        mapped = nullptr;
        mappedSize = 0;
    }
    ~Content() {
        sessions.clear();  // they read constants in place
        unmap();
    }
    const Schema::Net* net = nullptr;
    std::string bizCode;
    std::string uuid;
    std::string version;
    std::mutex lock;
    std::vector<std::unique_ptr<Session>> sessions;
    bool callbacks = true;
    bool deferResize = false;
    int64_t tensorLimit = (int64_t)2048 << 20;
    int64_t arenaLimit = (int64_t)8192 << 20;
    std::string cacheFile;
    bool released = false;
};

const char* getVersion() {
    return MNN_VERSION;
}

static bool finishContent(Content* c);

Interpreter* Interpreter::createFromFile(const char* file) {
    if (!file) {
        MNN_ERROR("createFromFile: file name is null\n");
        return nullptr;
    }
#if MNN_MODEL_MMAP
    // A private mapping: after a session has packed the weights, their pages are given back
    // (dropConstantPages) and re-read from the file only if something reads them again.
    int fd = ::open(file, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        MNN_ERROR("createFromFile: cannot open %s\n", file);
        return nullptr;
    }
    struct stat st;
    void* map = MAP_FAILED;
    size_t size = 0;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        size = (size_t)st.st_size;
        map = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    }
    ::close(fd);
    if (map != MAP_FAILED) {
        // Every page becomes a private copy before validation (a write to each), so a change to
        // the file later never reaches the validated graph. Only the pages that
        // SessionOptions::constantConsumed gives back (constant payloads) are read from the file
        // again, if at all.
        const long pageSize = ::sysconf(_SC_PAGESIZE);
        volatile uint8_t* bytes = (volatile uint8_t*)map;
        for (size_t i = 0; i < size; i += (size_t)(pageSize > 0 ? pageSize : 4096)) {
            bytes[i] = bytes[i];
        }
        registerAll();
        std::unique_ptr<Content> c(new Content);
        c->mapped = map;
        c->mappedSize = size;
        return finishContent(c.get()) ? new Interpreter(c.release()) : nullptr;
    }
#endif
    FILE* f = fopen(file, "rb");
    if (!f) {
        MNN_ERROR("createFromFile: cannot open %s\n", file);
        return nullptr;
    }
    registerAll();
    std::unique_ptr<Content> c(new Content);
    if (fseek(f, 0, SEEK_END) == 0) {
        long fsize = ftell(f);
        if (fsize > 0 && fseek(f, 0, SEEK_SET) == 0) {
            c->owned.resize((size_t)fsize);
            if (fread(c->owned.data(), 1, c->owned.size(), f) != c->owned.size()) {
                c->owned.clear();
            }
        }
    }
    fclose(f);
    if (c->owned.empty()) {
        MNN_ERROR("createFromFile: %s is empty or unreadable\n", file);
        return nullptr;
    }
    return finishContent(c.get()) ? new Interpreter(c.release()) : nullptr;
}

Interpreter* Interpreter::createFromBuffer(const void* buffer, size_t size) {
    if (!buffer || size == 0) {
        MNN_ERROR("createFromBuffer: empty buffer\n");
        return nullptr;
    }
    registerAll();
    std::unique_ptr<Content> c(new Content);
    c->owned.assign((const uint8_t*)buffer, (const uint8_t*)buffer + size);
    return finishContent(c.get()) ? new Interpreter(c.release()) : nullptr;
}

/** validates the model bytes and reads the header fields */
static bool finishContent(Content* c) {
    c->net = validateModel(c->data(), c->size());
    if (!c->net) {
        return false;
    }
    if (c->net->bizCode()) {
        c->bizCode = c->net->bizCode()->str();
    }
    if (c->net->uuid()) {
        c->uuid = c->net->uuid()->str();
    }
    if (c->net->version()) {
        c->version = c->net->version()->str();
    }
    return true;
}

/**
 * Mapped models (SessionOptions::constantConsumed): gives back the whole pages of a constant's
 * bytes once every op reading it has been resized (their Executions hold packed copies), so peak
 * memory does not hold the weights twice. Anything that reads them in place again faults the pages
 * back in from the file. Only Blob payloads come here, never the validated graph structure.
 */
static void dropConstantPages(void* owner, const void* data, size_t bytes) {
#if MNN_MODEL_MMAP && defined(MADV_DONTNEED)
    auto c = static_cast<const Content*>(owner);
    const long pageSize = ::sysconf(_SC_PAGESIZE);
    if (!c || !c->mapped || !data || pageSize <= 0) {
        return;
    }
    const uintptr_t page = (uintptr_t)pageSize, base = (uintptr_t)c->mapped;
    const uintptr_t p = (uintptr_t)data;
    if (p < base || p + bytes > base + c->mappedSize) {
        return;  // not in the mapping
    }
    const uintptr_t begin = (p + page - 1) / page * page, end = (p + bytes) / page * page;
    if (end > begin) {
        ::madvise((void*)begin, (size_t)(end - begin), MADV_DONTNEED);
    }
#else
    (void)owner;
    (void)data;
    (void)bytes;
#endif
}

Interpreter::Interpreter(Content* net) : mNet(net) {}

Interpreter::~Interpreter() {
    {
        std::lock_guard<std::mutex> l(mNet->lock);
        mNet->sessions.clear();
    }
    delete mNet;
}

void Interpreter::destroy(Interpreter* net) {
    delete net;
}

void Interpreter::setSessionMode(SessionMode mode) {
    switch (mode) {
        case Session_Debug:
            mNet->callbacks = true;
            break;
        case Session_Release:
            mNet->callbacks = false;
            break;
        case Session_Resize_Direct:
            mNet->deferResize = false;
            break;
        case Session_Resize_Defer:
            mNet->deferResize = true;
            break;
        default:
            break;  // the others need no action on the CPU backend
    }
}

void Interpreter::setCacheFile(const char* cacheFile, size_t keySize) {
    (void)keySize;
    mNet->cacheFile = cacheFile ? cacheFile : "";
}

void Interpreter::setExternalFile(const char* file, size_t flag) {
    (void)file;
    (void)flag;
}

ErrorCode Interpreter::updateCacheFile(Session* session, int flag) {
    (void)session;
    (void)flag;
    return NO_ERROR;  // the CPU backend has nothing to cache
}

void Interpreter::setSessionHint(HintMode mode, int value) {
    if (value <= 0) {
        return;
    }
    if (mode == TENSOR_SIZE_LIMIT_MB) {
        mNet->tensorLimit = (int64_t)value << 20;
    } else if (mode == ARENA_SIZE_LIMIT_MB) {
        mNet->arenaLimit = (int64_t)value << 20;
    }
}

Session* Interpreter::createSession(const ScheduleConfig& config) {
    return createMultiPathSession({config});
}

Session* Interpreter::createSession(const ScheduleConfig& config, const RuntimeInfo&) {
    return createMultiPathSession({config});
}

Session* Interpreter::createMultiPathSession(const std::vector<ScheduleConfig>& configs, const RuntimeInfo&) {
    return createMultiPathSession(configs);
}

Session* Interpreter::createMultiPathSession(const std::vector<ScheduleConfig>& configs) {
    std::lock_guard<std::mutex> l(mNet->lock);
    if (!mNet->net || mNet->released) {
        MNN_ERROR("createSession: the model was released (releaseModel); create sessions before releasing it\n");
        return nullptr;
    }
    SessionOptions options;
    for (auto& c : configs) {
        options.saveTensors.insert(options.saveTensors.end(), c.saveTensors.begin(), c.saveTensors.end());
    }
    options.callbacksEnabled = mNet->callbacks;
    options.deferResize = mNet->deferResize;
    options.tensorLimitBytes = mNet->tensorLimit;
    options.arenaLimitBytes = mNet->arenaLimit;
    options.aliasConstants = true;  // the weights are read in place from the model bytes (releaseModel detaches)
    if (mNet->mapped) {
        options.constantConsumed = dropConstantPages;
        options.constantOwner = mNet;
    }
    std::unique_ptr<Session> s(new Session(GraphRef::fromNet(mNet->net), configs, options));
    if (!s->init()) {
        return nullptr;  // reported by Session::init (it logged the reason)
    }
    auto r = s.get();
    mNet->sessions.emplace_back(std::move(s));
    return r;
}

bool Interpreter::releaseSession(Session* session) {
    std::lock_guard<std::mutex> l(mNet->lock);
    for (auto it = mNet->sessions.begin(); it != mNet->sessions.end(); ++it) {
        if (it->get() == session) {
            mNet->sessions.erase(it);
            return true;
        }
    }
    return false;
}

void Interpreter::resizeSession(Session* session) {
    resizeSession(session, 1);
}

void Interpreter::resizeSession(Session* session, int needRelloc) {
    (void)needRelloc;
    if (!session) {
        return;
    }
    session->markResize();
    if (session->deferResize()) {
        return;
    }
    // values of graph inputs may not be there yet: shapes that need them wait for runSession
    session->resize(false);
}

void Interpreter::releaseModel() {
    std::lock_guard<std::mutex> l(mNet->lock);
    if (!mNet->net || mNet->released) {
        return;
    }
    // Sessions reading constants in place from the buffer get their own copies first: a later
    // resize re-packs weights from them.
    for (auto& s : mNet->sessions) {
        if (!s->detachConstants()) {
            MNN_ERROR("releaseModel: out of memory copying the constants of a session; the model is kept\n");
            return;
        }
    }
    // Keep the graph structure (ops, names) for later resizes; drop the weights, which the
    // sessions' backends already hold.
    std::unique_ptr<Schema::NetT> obj(mNet->net->UnPack());
    for (auto& b : obj->constants) {
        b->raw.clear();
        b->raw.shrink_to_fit();
        b->dims.clear();
    }
    flatbuffers::FlatBufferBuilder builder;
    builder.Finish(Schema::Net::Pack(builder, obj.get()), Schema::NetIdentifier());
    std::vector<uint8_t> small(builder.GetBufferPointer(), builder.GetBufferPointer() + builder.GetSize());
    mNet->owned.swap(small);
    std::vector<uint8_t>().swap(small);
    mNet->unmap();
    mNet->net = Schema::GetNet(mNet->owned.data());
    for (auto& s : mNet->sessions) {
        s->rebind(GraphRef::fromNet(mNet->net));
    }
    mNet->released = true;
}

std::pair<const void*, size_t> Interpreter::getModelBuffer() const {
    if (mNet->released) {
        return std::make_pair(nullptr, 0);
    }
    return std::make_pair((const void*)mNet->data(), mNet->size());
}

const char* Interpreter::getModelVersion() const {
    return mNet->version.empty() ? "unknown" : mNet->version.c_str();
}

ErrorCode Interpreter::updateSessionToModel(Session*) {
    MNN_ERROR("updateSessionToModel: not supported (weights are not trained here)\n");
    return NOT_SUPPORT;
}

ErrorCode Interpreter::runSession(Session* session) const {
    if (!session) {
        MNN_ERROR("runSession: session is null\n");
        return INVALID_VALUE;
    }
    return session->run(nullptr, nullptr);
}

ErrorCode Interpreter::runSessionWithCallBack(const Session* session, const TensorCallBack& before,
                                              const TensorCallBack& end, bool sync) const {
    (void)sync;
    TensorCallBackWithInfo b = [&before](const std::vector<Tensor*>& t, const OperatorInfo* info) {
        return before(t, info->name());
    };
    TensorCallBackWithInfo a = [&end](const std::vector<Tensor*>& t, const OperatorInfo* info) {
        return end(t, info->name());
    };
    return runSessionWithCallBackInfo(session, before ? b : TensorCallBackWithInfo(),
                                      end ? a : TensorCallBackWithInfo(), sync);
}

ErrorCode Interpreter::runSessionWithCallBackInfo(const Session* session, const TensorCallBackWithInfo& before,
                                                  const TensorCallBackWithInfo& end, bool sync) const {
    (void)sync;
    if (!session) {
        MNN_ERROR("runSessionWithCallBack: session is null\n");
        return INVALID_VALUE;
    }
    return const_cast<Session*>(session)->run(&before, &end);
}

Tensor* Interpreter::getSessionInput(const Session* session, const char* name) {
    return session ? session->getInput(name) : nullptr;
}

Tensor* Interpreter::getSessionOutput(const Session* session, const char* name) {
    return session ? session->getOutput(name) : nullptr;
}

bool Interpreter::getSessionInfo(const Session* session, SessionInfoCode code, void* ptr) {
    if (!session || !ptr) {
        return false;
    }
    switch (code) {
        case MEMORY:
            *(float*)ptr = session->memoryMB();
            return true;
        case FLOPS:
            *(float*)ptr = session->flopsM();
            return true;
        case BACKENDS: {
            auto types = session->backendTypes();
            for (size_t i = 0; i < types.size(); ++i) {
                ((int*)ptr)[i] = types[i];
            }
            return true;
        }
        case RESIZE_STATUS:
            *(int*)ptr = session->needResize() ? 1 : 0;
            return true;
        case THREAD_NUMBER:
            *(int*)ptr = session->threadNumber();
            return true;
        default:
            return false;
    }
}

const std::map<std::string, Tensor*>& Interpreter::getSessionOutputAll(const Session* session) const {
    return session->outputs();
}

const std::map<std::string, Tensor*>& Interpreter::getSessionInputAll(const Session* session) const {
    return session->inputs();
}

void Interpreter::resizeTensor(Tensor* tensor, const std::vector<int>& dims) {
    if (!tensor) {
        return;
    }
    if (dims.size() > MNN_MAX_TENSOR_DIM) {
        MNN_ERROR("resizeTensor: rank %d over the limit %d\n", (int)dims.size(), MNN_MAX_TENSOR_DIM);
        return;
    }
    int64_t count = 0;
    int bytes = tensor->getType().bytes() > 0 ? tensor->getType().bytes() : 1;
    if (!TensorUtils::checkedProduct(dims, mNet->tensorLimit / bytes, &count)) {
        MNN_ERROR("resizeTensor: shape %s of %s is invalid or over the tensor size limit\n",
                  TensorUtils::shapeString(dims).c_str(), TensorUtils::describe(tensor)->name.c_str());
        return;
    }
    if (TensorUtils::shape(tensor) == dims) {
        return;
    }
    std::lock_guard<std::mutex> l(mNet->lock);
    for (auto& s : mNet->sessions) {
        if (s->hasInputTensor(tensor)) {
            TensorUtils::setShape(tensor, dims);
            // inputs own their memory: the app may fill it before the (possibly deferred) resize
            TensorUtils::allocHost(tensor);
            s->markResize();
            return;
        }
    }
    TensorUtils::setShape(tensor, dims);
}

void Interpreter::resizeTensor(Tensor* tensor, int batch, int channel, int height, int width) {
    if (!tensor) {
        return;
    }
    if (tensor->getDimensionType() == Tensor::TENSORFLOW) {
        resizeTensor(tensor, {batch, height, width, channel});
    } else {
        resizeTensor(tensor, {batch, channel, height, width});
    }
}

const Backend* Interpreter::getBackend(const Session* session, const Tensor* tensor) const {
    return session && tensor ? session->backendOf(tensor) : nullptr;
}

const char* Interpreter::bizCode() const {
    return mNet->bizCode.c_str();
}

const char* Interpreter::uuid() const {
    return mNet->uuid.c_str();
}

}  // namespace MNN
