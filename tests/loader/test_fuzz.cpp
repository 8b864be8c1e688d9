// Tens of thousands of corrupted code objects, metadata blobs and kernel
// descriptors: the loader either returns a CodeObject or throws a
// CodeObjectError naming "<memory>" and a problem; it never crashes, never
// throws anything else, and (under -DDPPGEMM_SANITIZE=ON) never reads out of
// bounds. Deterministic: fixed seeds.
#include <catch2/catch.hpp>

#include <random>

#include "emu/loader/code_object.hpp"
#include "image_edit.hpp"
#include "toolchain.hpp"

using namespace dppgemm::emu;
using namespace loader_test;

namespace {

struct Outcomes {
    std::size_t loaded = 0;
    std::size_t rejected = 0;
};

// Loads one mutated image; anything but a CodeObject or a well-formed
// CodeObjectError fails the test.
void load_one(const Bytes& bytes, Outcomes& outcomes) {
    try {
        const CodeObject co = load_code_object(bytes.data(), bytes.size());
        for (const Kernel& kernel : co.kernels) {
            REQUIRE(!kernel.code.empty());
            REQUIRE(kernel.code.size() % 4 == 0);
            REQUIRE(kernel.descriptor.user_sgpr_count >= kernel.descriptor.user_sgprs.count());
        }
        ++outcomes.loaded;
    } catch (const CodeObjectError& error) {
        REQUIRE(error.source() == "<memory>");
        REQUIRE(!error.problem().empty());
        ++outcomes.rejected;
    }
}

class Mutator {
public:
    explicit Mutator(std::uint64_t seed) : random_(seed) {}

    std::size_t below(std::size_t n) {
        return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(random_);
    }

    // A range worth corrupting: the ELF header, program headers, section
    // headers, the metadata note, or anywhere.
    std::pair<std::size_t, std::size_t> region(const Bytes& original) {
        switch (below(5)) {
        case 0: return {0, 64};
        case 1: return {get<std::uint64_t>(original, e_phoff), get<std::uint16_t>(original, e_phnum) * 56u};
        case 2: return {get<std::uint64_t>(original, e_shoff), get<std::uint16_t>(original, e_shnum) * 64u};
        case 3: return metadata_note(original);
        default: return {0, original.size()};
        }
    }

    Bytes mutate(const Bytes& original) {
        Bytes bytes = original;
        auto [begin, length] = region(original);
        if (begin >= bytes.size()) begin = 0;
        length = std::min(length == 0 ? bytes.size() : length, bytes.size() - begin);
        const std::size_t edits = 1 + below(8);
        switch (below(5)) {
        case 0:  // truncate
            bytes.resize(below(bytes.size()));
            break;
        case 1:  // flip bits
            for (std::size_t i = 0; i < edits; ++i) bytes[begin + below(length)] ^= std::uint8_t(1u << below(8));
            break;
        case 2: {  // interesting values
            static const std::uint8_t values[] = {0x00, 0xff, 0x7f, 0x80, 0x01, 0x40, 0xfe};
            for (std::size_t i = 0; i < edits; ++i) bytes[begin + below(length)] = values[below(sizeof values)];
            break;
        }
        case 3: {  // a 32- or 64-bit field set to a boundary value
            static const std::uint64_t values[] = {
                0, 1, 0xffffffffu, 0x80000000u, ~std::uint64_t(0), 1ull << 63, original.size(), original.size() + 1};
            const std::size_t at = begin + below(length);
            const std::uint64_t value = values[below(sizeof values / sizeof values[0])];
            const std::size_t width = below(2) ? 4 : 8;
            for (std::size_t i = 0; i < width && at + i < bytes.size(); ++i)
                bytes[at + i] = std::uint8_t(value >> (8 * i));
            break;
        }
        default: {  // copy a chunk over another place
            const std::size_t from = below(bytes.size()), to = begin + below(length);
            const std::size_t count = std::min({below(64) + 1, bytes.size() - from, bytes.size() - to});
            std::memmove(bytes.data() + to, original.data() + from, count);
            break;
        }
        }
        return bytes;
    }

    std::mt19937_64& random() { return random_; }

private:
    std::mt19937_64 random_;
};

}  // namespace

TEST_CASE("fuzz: 40000 corrupted code objects load or are rejected cleanly", "[loader][fuzz]") {
    const std::vector<Bytes> corpus = {
        read_bytes(assemble("fuzz_gfx906_v4", two_kernels_source("gfx906", 4), "gfx906", 4)),
        read_bytes(assemble("fuzz_gfx90a_v5", two_kernels_source("gfx90a", 5), "gfx90a", 5)),
        read_bytes(assemble("fuzz_gfx942_v5", two_kernels_source("gfx942", 5), "gfx942", 5)),
        read_bytes(assemble("fuzz_gfx908_v4", two_kernels_source("gfx908", 4), "gfx908", 4)),
    };
    Mutator mutator(20261122);
    Outcomes outcomes;
    constexpr std::size_t per_object = 10000;
    for (const Bytes& original : corpus) {
        Outcomes unmutated;
        load_one(original, unmutated);
        REQUIRE(unmutated.loaded == 1);
        for (std::size_t i = 0; i < per_object; ++i) load_one(mutator.mutate(original), outcomes);
    }
    WARN("corrupted code objects: " << outcomes.loaded << " loaded, " << outcomes.rejected << " rejected");
    CHECK(outcomes.loaded + outcomes.rejected == corpus.size() * per_object);
    // Both outcomes must be common, or the mutations are not reaching the
    // interesting parts (or the loader rejects everything).
    CHECK(outcomes.rejected > corpus.size() * per_object / 4);
    CHECK(outcomes.loaded > corpus.size() * per_object / 20);
}

TEST_CASE("fuzz: random bytes behind a valid ELF header", "[loader][fuzz]") {
    const Bytes valid = read_bytes(assemble("fuzz_random_tail", two_kernels_source("gfx906", 4), "gfx906", 4));
    Mutator mutator(7);
    Outcomes outcomes;
    for (std::size_t i = 0; i < 5000; ++i) {
        Bytes bytes(64 + mutator.below(8192));
        std::copy(valid.begin(), valid.begin() + 64, bytes.begin());
        for (std::size_t at = 64; at < bytes.size(); ++at) bytes[at] = std::uint8_t(mutator.random()());
        load_one(bytes, outcomes);
    }
    CHECK(outcomes.rejected == 5000);
}

TEST_CASE("fuzz: 20000 corrupted metadata blobs", "[loader][fuzz]") {
    const Bytes valid = read_bytes(assemble("fuzz_metadata", two_kernels_source("gfx90a", 5), "gfx90a", 5));
    const auto [at, size] = metadata_note(valid);
    REQUIRE(at != std::string::npos);
    const Bytes blob(valid.begin() + static_cast<std::ptrdiff_t>(at),
                     valid.begin() + static_cast<std::ptrdiff_t>(at + size));
    CHECK(parse_metadata(blob.data(), blob.size()).kernels.size() == 2);
    Mutator mutator(42);
    std::size_t parsed = 0, rejected = 0;
    for (std::size_t i = 0; i < 20000; ++i) {
        Bytes bytes = blob;
        const std::size_t edits = 1 + mutator.below(4);
        for (std::size_t e = 0; e < edits; ++e) {
            if (mutator.below(4) == 0) bytes.resize(mutator.below(bytes.size()));
            if (bytes.empty()) break;
            bytes[mutator.below(bytes.size())] = std::uint8_t(mutator.random()());
        }
        try {
            parse_metadata(bytes.data(), bytes.size());
            ++parsed;
        } catch (const FormatError& error) {
            REQUIRE(std::string(error.what()).rfind("metadata", 0) == 0);
            ++rejected;
        }
    }
    WARN("corrupted metadata: " << parsed << " parsed, " << rejected << " rejected");
    CHECK(parsed + rejected == 20000);
    CHECK(rejected > 10000);
}

TEST_CASE("fuzz: random kernel descriptors for every target", "[loader][fuzz]") {
    Mutator mutator(99);
    for (Target target : all_targets) {
        std::size_t decoded = 0;
        for (std::size_t i = 0; i < 5000; ++i) {
            std::uint8_t bytes[kernel_descriptor_size] = {};
            // Random fields; reserved bits cleared half of the time each, so
            // that decoding often gets past the reserved-bit checks.
            const std::pair<std::size_t, std::size_t> fields[] = {{0, 12}, {16, 8}, {44, 14}};
            for (const auto& [begin, length] : fields)
                for (std::size_t at = begin; at < begin + length; ++at) bytes[at] = std::uint8_t(mutator.random()());
            const std::pair<std::size_t, std::uint8_t> reserved_masks[] = {
                {44, 0x3f}, {45, 0x00}, {46, 0x01}, {47, 0x00},  // rsrc3 (gfx90a+ fields)
                {51, 0x07},                                      // rsrc1 bits 27..31
                {53, 0x7f}, {54, 0x00}, {55, 0x7f},              // rsrc2 LDS size, bit 31
                {56, 0x7f}, {57, 0x08}};                         // kernel_code_properties
            for (const auto& [at, mask] : reserved_masks)
                if (mutator.below(8) != 0) bytes[at] &= has_unified_vgpr_file(target) || at > 47 ? mask : 0;
            if (mutator.below(2)) bytes[52] = std::uint8_t((bytes[52] & 0xc1) | (16 << 1));  // 16 user SGPRs
            try {
                const KernelDescriptor kd = decode_kernel_descriptor(bytes, target);
                REQUIRE(kd.user_sgpr_count >= kd.user_sgprs.count());
                REQUIRE(kd.arch_vgprs + (has_unified_vgpr_file(target) ? kd.acc_vgprs : 0) == kd.allocated_vgprs);
                REQUIRE(kd.enable_vgpr_workitem_id <= 2);
                ++decoded;
            } catch (const FormatError& error) {
                REQUIRE(std::string(error.what()).rfind("kernel descriptor: ", 0) == 0);
            }
        }
        INFO(target_name(target));
        CHECK(decoded > 100);
    }
}
