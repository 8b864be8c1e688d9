// libdppgemm-hipemu under bad input (issue 17): sizes that overflow, files
// that are no code object (a directory, /dev/null, /dev/zero, a FIFO without
// a writer), code objects the emulator cannot hold, a bad thread count. Each
// ends in the documented hipError_t and one stderr line (docs/host.md,
// "Failure behaviour"), never in an exception, an abort or a hang.
#include <catch2/catch.hpp>

#include <elf.h>
#include <hip/hip_runtime_api.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "capture_stderr.hpp"
#include "dppgemm/code_objects.h"

namespace {

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

}  // namespace

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

// Run alone with DPPGEMM_HIPEMU_THREADS=-1 (tests/host/CMakeLists.txt): the
// runtime reads the variable once, when first used.
TEST_CASE("hipemu failures: a bad DPPGEMM_HIPEMU_THREADS is named and ignored", "[.threads]") {
  const char* value = std::getenv("DPPGEMM_HIPEMU_THREADS");
  REQUIRE(value);
  int count = 0;
  CapturedStderr captured;
  CHECK(hipGetDeviceCount(&count) == hipSuccess);
  CHECK(captured.text() == std::string("hipemu: ignoring DPPGEMM_HIPEMU_THREADS='") + value +
                               "' (expected 0..1024; 0: every core)\n");
  const std::vector<std::uint8_t> image = embedded("gfx906", "dpp1", "NN");
  hipModule_t module = nullptr;
  hipFunction_t function = nullptr;
  REQUIRE(hipModuleLoadData(&module, image.data()) == hipSuccess);
  REQUIRE(hipModuleGetFunction(&function, module, "dppgemm_sgemm_dpp1_NN") == hipSuccess);
}
