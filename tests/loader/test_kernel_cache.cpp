// The test toolchain's kernel cache (tests/support/test_toolchain.hpp,
// assemble()): a cached kernel is byte for byte what clang and ld.lld make,
// each input of the key makes its own entry, and an entry whose key text
// differs (a hash collision) is not used.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "toolchain.hpp"

namespace {

namespace support = dppgemm::test_support;

// A kernel source no other test assembles: a fresh constant in its body.
std::string unique_source(std::uint32_t tag) {
    return std::string(".text\n.globl k\n.p2align 8\n.type k,@function\nk:\n  s_mov_b32 s0, ") + std::to_string(tag) +
           "\n  s_endpgm\n";
}

std::size_t entries(const std::string& dir) {
    std::size_t n = 0;
    if (std::filesystem::is_directory(dir))
        for (const auto& e : std::filesystem::directory_iterator(dir)) n += e.path().extension() == ".co";
    return n;
}

std::uint32_t fresh_tag() {
    std::random_device device;
    return std::uint32_t(device()) ^ std::uint32_t(std::chrono::steady_clock::now().time_since_epoch().count());
}

}  // namespace

TEST_CASE("kernel cache: the second assembly of a source is the first's bytes, from one new entry") {
    const std::string& cache = support::kernel_cache_dirs().front();
    const std::string source = unique_source(fresh_tag());
    const std::size_t before = entries(cache);
    const auto first = support::read_bytes(support::assemble("cache_a", source, "gfx90a", 4));
    CHECK(entries(cache) == before + 1);
    const auto second = support::read_bytes(support::assemble("cache_b", source, "gfx90a", 4));
    CHECK(entries(cache) == before + 1);
    CHECK(second == first);
    // Another processor, version or flags: another entry, other bytes (e_flags).
    const auto other = support::read_bytes(support::assemble("cache_c", source, "gfx906", 4));
    CHECK(entries(cache) == before + 2);
    CHECK(other != first);
    support::assemble("cache_d", source, "gfx90a", 5);
    CHECK(entries(cache) == before + 3);
}

TEST_CASE("kernel cache: an entry with another key's text is not used, and is replaced") {
    const std::string source = unique_source(fresh_tag());
    const auto right = support::read_bytes(support::assemble("collide_a", source, "gfx90a", 4));
    // Make its entry say another key and hold other bytes, as a colliding
    // source's entry would.
    const std::string entry = support::kernel_cache_entry(source, "gfx90a", 4);
    REQUIRE(std::filesystem::exists(entry + ".key"));
    std::ofstream(entry + ".key", std::ios::binary) << "another key";
    std::ofstream(entry + ".co", std::ios::binary) << "other bytes";
    CHECK(support::read_bytes(support::assemble("collide_b", source, "gfx90a", 4)) == right);
    CHECK(support::read_bytes(entry + ".co") == right);
}
