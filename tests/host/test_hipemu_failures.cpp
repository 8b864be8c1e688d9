// libdppgemm-hipemu under bad input: sizes that overflow (fills,
// pitched allocations and 2D copies, symbol copies, managed and registered
// memory), host callbacks that throw, files
// that are no code object (a directory, /dev/null, /dev/zero, a FIFO without
// a writer), code objects the emulator cannot hold, a bad thread count. Each
// ends in the documented hipError_t, with the stderr line docs/reliability.md
// ("libdppgemm-hipemu") gives, never in an exception, an abort or a hang.
#include <catch2/catch.hpp>

#include <elf.h>
#include <hip/hip_runtime_api.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "capture_stderr.hpp"
#include "dppgemm/code_objects.h"

namespace {

// These tests pin what hipemu says about each bad input, alone: the errors
// are the point here, not API error findings (tests/hipemu tests those).
// Set before main, before hipemu first reads it.
const int api_errors_off = setenv("DPPGEMM_HIPEMU_API_ERRORS", "0", 1);

std::size_t lines_of(const std::string& text) { return count_of(text, "\n"); }

std::vector<std::uint8_t> embedded(const char* target, const char* variant, const char* layout) {
    const dppgemm_code_object* co = dppgemm_find_code_object(target, variant, layout);
    REQUIRE(co);
    return {co->data, co->data + co->size};
}

// The code object with its last PT_LOAD segment grown to `memsz` bytes.
std::vector<std::uint8_t> with_last_load_memsz(std::vector<std::uint8_t> image, std::uint64_t memsz) {
    Elf64_Ehdr header;
    std::memcpy(&header, image.data(), sizeof header);
    std::size_t last = 0;
    for (unsigned i = 0; i < header.e_phnum; ++i) {
        Elf64_Phdr phdr;
        std::memcpy(&phdr, image.data() + header.e_phoff + i * header.e_phentsize, sizeof phdr);
        if (phdr.p_type == PT_LOAD) last = header.e_phoff + i * header.e_phentsize;
    }
    REQUIRE(last != 0);
    std::memcpy(image.data() + last + offsetof(Elf64_Phdr, p_memsz), &memsz, sizeof memsz);
    return image;
}

std::string temporary_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / (name + "." + std::to_string(getpid()))).string();
}

std::vector<std::uint8_t> file_bytes(const char* path) {
    std::ifstream file(path, std::ios::binary);
    REQUIRE(file);
    return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// What clang emits for a translation unit's fat binary (kernels_in_program.cpp).
struct FatBinaryWrapper {
    std::int32_t magic = 0x48495046;  // "HIPF"
    std::int32_t version = 1;
    const void* bundle;
    const void* unused = nullptr;
};

constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();

}  // namespace

// The registration calls clang's generated code makes before main.
extern "C" void** __hipRegisterFatBinary(const void* data);
extern "C" void __hipRegisterVar(void** handle, void* shadow, char* host_name, char* device_name, int external,
                                 size_t size, int constant, int global);

TEST_CASE("hipemu failures: memset counts whose byte size wraps are refused, nothing is written") {
    void* block = nullptr;
    void* neighbour = nullptr;
    REQUIRE(hipMalloc(&block, 64) == hipSuccess);
    REQUIRE(hipMalloc(&neighbour, 64) == hipSuccess);
    REQUIRE(hipMemset(neighbour, 0x11, 64) == hipSuccess);
    // 2^62 four-byte words are 2^64 bytes: 0 after wrapping, which fits anything.
    CHECK(hipMemsetD32(block, 0x7f7f7f7f, std::size_t(1) << 62) == hipErrorInvalidValue);
    CHECK(hipMemsetD32(block, 0x7f7f7f7f, (std::size_t(1) << 62) + 4) == hipErrorInvalidValue);
    CHECK(hipMemsetD8(block, 1, std::numeric_limits<std::size_t>::max()) == hipErrorInvalidValue);
    CHECK(hipMemset(block, 1, std::numeric_limits<std::size_t>::max()) == hipErrorInvalidValue);
    std::vector<std::uint8_t> bytes(64);
    REQUIRE(hipMemcpy(bytes.data(), neighbour, 64, hipMemcpyDeviceToHost) == hipSuccess);
    CHECK(bytes == std::vector<std::uint8_t>(64, 0x11));
    CHECK(hipFree(block) == hipSuccess);
    CHECK(hipFree(neighbour) == hipSuccess);
}

TEST_CASE("hipemu failures: hipModuleLoad of what is no code object file") {
    hipModule_t module = nullptr;
    const std::string directory = std::filesystem::temp_directory_path().string();
    {
        CapturedStderr captured;
        CHECK(hipModuleLoad(&module, directory.c_str()) == hipErrorFileNotFound);
        const std::string text = captured.text();
        CHECK(text == "hipemu: hipModuleLoad '" + directory + "': is a directory\n");
    }
    {
        CapturedStderr captured;
        CHECK(hipModuleLoad(&module, "/dev/null") == hipErrorInvalidImage);
        CHECK(captured.text() == "hipemu: /dev/null: empty, not a code object\n");
    }
    {
        // A device that never ends: read up to the 256 MiB cap, then refused.
        CapturedStderr captured;
        CHECK(hipModuleLoad(&module, "/dev/zero") == hipErrorInvalidImage);
        const std::string text = captured.text();
        CHECK(lines_of(text) == 1);
        CHECK(count_of(text, "hipemu: hipModuleLoad '/dev/zero': more than the limit of 256 MiB") == 1);
    }
    {
        // A FIFO nobody writes: opening it must not wait for a writer.
        const std::string fifo = temporary_path("hipemu_fifo");
        REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
        CapturedStderr captured;
        CHECK(hipModuleLoad(&module, fifo.c_str()) == hipErrorInvalidImage);
        CHECK(captured.text() == "hipemu: " + fifo + ": empty, not a code object\n");
        std::filesystem::remove(fifo);
    }
}

TEST_CASE("hipemu failures: a code object whose segments end past 256 MiB is an invalid image") {
    const std::vector<std::uint8_t> image = with_last_load_memsz(embedded("gfx906", "dpp1", "NN"), 512u << 20);
    hipModule_t module = nullptr;
    CapturedStderr captured;
    CHECK(hipModuleLoadData(&module, image.data()) == hipErrorInvalidImage);
    const std::string text = captured.text();
    CHECK(lines_of(text) == 1);
    CHECK(count_of(text, "ends past the emulator's 256 MiB code object image") == 1);
}

TEST_CASE("hipemu failures: an offload bundle without the emulated target names the targets it has") {
    // The bundle's size comes from its table; a hand-made one with one entry.
    std::vector<std::uint8_t> bundle;
    const std::string magic = "__CLANG_OFFLOAD_BUNDLE__", triple = "hipv4-amdgcn-amd-amdhsa--gfx1100";
    bundle.insert(bundle.end(), magic.begin(), magic.end());
    const auto put64 = [&](std::uint64_t v) {
        for (int i = 0; i < 8; ++i) bundle.push_back(std::uint8_t(v >> (8 * i)));
    };
    put64(1);
    put64(magic.size() + 32 + triple.size());
    put64(0);
    put64(triple.size());
    bundle.insert(bundle.end(), triple.begin(), triple.end());
    hipModule_t module = nullptr;
    CapturedStderr captured;
    CHECK(hipModuleLoadData(&module, bundle.data()) == hipErrorNoBinaryForGpu);
    CHECK(count_of(captured.text(), "offload bundle has no code object for gfx906 (it has: " + triple + ")") == 1);
}

TEST_CASE("hipemu failures: hipMallocPitch sizes that overflow are refused, nothing is allocated or written") {
    void* const untouched = reinterpret_cast<void*>(std::uintptr_t{0x5a5a});
    void* block = untouched;
    std::size_t pitch = 77;
    // The row rounded up to the 256-byte pitch alignment wraps to 0.
    CHECK(hipMallocPitch(&block, &pitch, kMax - 10, 1) == hipErrorInvalidValue);
    // pitch 1024 times 2^54 rows is 2^64 bytes.
    CHECK(hipMallocPitch(&block, &pitch, 1000, std::size_t(1) << 54) == hipErrorInvalidValue);
    CHECK(block == untouched);
    CHECK(pitch == 77);
    CHECK(hipGetLastError() == hipErrorInvalidValue);
    // The same call with a count that fits.
    REQUIRE(hipMallocPitch(&block, &pitch, 1000, 3) == hipSuccess);
    CHECK(pitch == 1024);
    CHECK(hipFree(block) == hipSuccess);
}

TEST_CASE("hipemu failures: hipMemcpy2D regions that overflow or overrun are refused before any row is copied") {
    void* block = nullptr;
    REQUIRE(hipMalloc(&block, 256) == hipSuccess);
    REQUIRE(hipMemset(block, 0x11, 256) == hipSuccess);
    const std::vector<std::uint8_t> source(4096, 0xee);
    for (const bool async : {false, true}) {
        const auto copy_2d = [&](std::size_t dpitch, std::size_t spitch, std::size_t width, std::size_t height) {
            return async ? hipMemcpy2DAsync(block, dpitch, source.data(), spitch, width, height, hipMemcpyHostToDevice,
                                            nullptr)
                         : hipMemcpy2D(block, dpitch, source.data(), spitch, width, height, hipMemcpyHostToDevice);
        };
        // (height - 1) * dpitch = 2 * 2^63 wraps to 0: row 0 fits, the rest would land anywhere.
        CHECK(copy_2d(std::size_t(1) << 63, 16, 16, 3) == hipErrorInvalidValue);
        // width * height = 16 * 2^60 wraps; so does every row's offset.
        CHECK(copy_2d(16, 16, 16, std::size_t(1) << 60) == hipErrorInvalidValue);
        // The last row's end, 2 * (2^63 - 8) + 16, is just past 2^64.
        CHECK(copy_2d(16, (std::size_t(1) << 63) - 8, 16, 3) == hipErrorInvalidValue);
        // No overflow, but rows 4..7 (7 * 64 + 16 = 464 bytes) are past the 256-byte block.
        CHECK(copy_2d(64, 16, 16, 8) == hipErrorInvalidValue);
    }
    std::vector<std::uint8_t> bytes(256);
    REQUIRE(hipMemcpy(bytes.data(), block, 256, hipMemcpyDeviceToHost) == hipSuccess);
    CHECK(bytes == std::vector<std::uint8_t>(256, 0x11));
    // The largest region that fits is copied.
    CHECK(hipMemcpy2D(block, 64, source.data(), 16, 16, 4, hipMemcpyHostToDevice) == hipSuccess);
    REQUIRE(hipMemcpy(bytes.data(), block, 256, hipMemcpyDeviceToHost) == hipSuccess);
    std::vector<std::uint8_t> expected(256, 0x11);
    for (std::size_t row = 0; row < 4; ++row) std::fill_n(expected.begin() + row * 64, 16, 0xee);
    CHECK(bytes == expected);
    CHECK(hipFree(block) == hipSuccess);
}

TEST_CASE("hipemu failures: symbol copies whose offset plus count wraps are refused, nothing is written") {
    // counter.hip's `__device__ unsigned launches = 10`, registered as hipcc's code would.
    static const std::vector<std::uint8_t> bundle = file_bytes(HIPEMU_TEST_COUNTER_BUNDLE);  // loaded on first use
    static FatBinaryWrapper wrapper;
    wrapper.bundle = bundle.data();
    static unsigned shadow;  // the host-side variable the program names the symbol by
    char name[] = "launches";
    __hipRegisterVar(__hipRegisterFatBinary(&wrapper), &shadow, name, name, 0, sizeof shadow, 0, 0);
    // As a const void*: the header's templates would take the address of a pointer to `shadow`.
    const void* const symbol = &shadow;
    std::size_t size = 0;
    REQUIRE(hipGetSymbolSize(&size, symbol) == hipSuccess);
    REQUIRE(size == 4);

    const unsigned value = 0xdeadbeef;
    // offset + count = 2^64 - 1 + 2 wraps to 1, inside the 4 bytes.
    CHECK(hipMemcpyToSymbol(symbol, &value, 2, kMax, hipMemcpyHostToDevice) == hipErrorInvalidValue);
    CHECK(hipMemcpyToSymbol(symbol, &value, kMax, 2, hipMemcpyHostToDevice) == hipErrorInvalidValue);
    CHECK(hipMemcpyToSymbolAsync(symbol, &value, 2, kMax, hipMemcpyHostToDevice, nullptr) == hipErrorInvalidValue);
    // One byte past the end, without any wrapping.
    CHECK(hipMemcpyToSymbol(symbol, &value, 4, 1, hipMemcpyHostToDevice) == hipErrorInvalidValue);
    unsigned read = 0x5a5a5a5a;
    CHECK(hipMemcpyFromSymbol(&read, symbol, 2, kMax, hipMemcpyDeviceToHost) == hipErrorInvalidValue);
    CHECK(hipMemcpyFromSymbolAsync(&read, symbol, kMax, 2, hipMemcpyDeviceToHost, nullptr) == hipErrorInvalidValue);
    CHECK(read == 0x5a5a5a5a);
    CHECK(hipMemcpyFromSymbol(&read, symbol, 4, 0, hipMemcpyDeviceToHost) == hipSuccess);
    CHECK(read == 10);
}

TEST_CASE("hipemu failures: hipMallocManaged and hipHostRegister sizes that cannot be are refused") {
    void* const untouched = reinterpret_cast<void*>(std::uintptr_t{0x5a5a});
    void* block = untouched;
    // Rounded up to whole 4 KiB pages, 2^64 - 1 bytes wrap to 0.
    CHECK(hipMallocManaged(&block, kMax, hipMemAttachGlobal) == hipErrorInvalidValue);
    // 2^60 bytes: no overflow, but more than the emulated device's memory.
    CHECK(hipMallocManaged(&block, std::size_t(1) << 60, hipMemAttachGlobal) == hipErrorOutOfMemory);
    CHECK(block == untouched);
    REQUIRE(hipMallocManaged(&block, 100, hipMemAttachGlobal) == hipSuccess);
    CHECK(hipFree(block) == hipSuccess);

    std::vector<std::uint8_t> host(64);
    // A range that wraps around the address space (the emulator would have called it registered already).
    CHECK(hipHostRegister(host.data(), kMax, hipHostRegisterDefault) == hipErrorInvalidValue);
    void* device = nullptr;
    CHECK(hipHostGetDevicePointer(&device, host.data(), 0) == hipErrorInvalidValue);  // nothing was registered
    CHECK(hipHostRegister(host.data(), host.size(), hipHostRegisterDefault) == hipSuccess);
    CHECK(hipHostUnregister(host.data()) == hipSuccess);
}

TEST_CASE("hipemu failures: a host callback that throws ends in the guard's error and one line") {
    {
        CapturedStderr captured;
        CHECK(hipLaunchHostFunc(
                  nullptr, [](void*) { throw std::runtime_error("callback failed"); }, nullptr) == hipErrorUnknown);
        CHECK(captured.text() == "hipemu: hipLaunchHostFunc: callback failed (hipErrorUnknown)\n");
        CHECK(hipGetLastError() == hipErrorUnknown);
    }
    {
        CapturedStderr captured;
        CHECK(hipStreamAddCallback(
                  nullptr, [](hipStream_t, hipError_t, void*) { throw std::bad_alloc(); }, nullptr, 0) ==
              hipErrorOutOfMemory);
        CHECK(captured.text() == "hipemu: hipStreamAddCallback: out of host memory (hipErrorOutOfMemory)\n");
        CHECK(hipGetLastError() == hipErrorOutOfMemory);
    }
    // The runtime goes on.
    int calls = 0;
    CHECK(hipLaunchHostFunc(
              nullptr, [](void* count) { ++*static_cast<int*>(count); }, &calls) == hipSuccess);
    CHECK(calls == 1);
}

// Run alone with DPPGEMM_HIPEMU_THREADS=-1 (tests/host/CMakeLists.txt): the
// runtime reads the variable once, when first used.
TEST_CASE("hipemu failures: a bad DPPGEMM_HIPEMU_THREADS is named and ignored", "[.threads]") {
    const char* value = std::getenv("DPPGEMM_HIPEMU_THREADS");
    REQUIRE(value);
    int count = 0;
    CapturedStderr captured;
    CHECK(hipGetDeviceCount(&count) == hipSuccess);
    CHECK(captured.text() ==
          std::string("hipemu: ignoring DPPGEMM_HIPEMU_THREADS='") + value + "' (expected 0..1024; 0: every core)\n");
    const std::vector<std::uint8_t> image = embedded("gfx906", "dpp1", "NN");
    hipModule_t module = nullptr;
    hipFunction_t function = nullptr;
    REQUIRE(hipModuleLoadData(&module, image.data()) == hipSuccess);
    REQUIRE(hipModuleGetFunction(&function, module, "dppgemm_sgemm_dpp1_NN") == hipSuccess);
}
