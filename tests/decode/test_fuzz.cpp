// Robustness: random and mutated instruction words are decoded and printed
// without crashing, hanging or reading outside the buffer (the CI runs this
// under ASan/UBSan).  Every Inst must stay inside the buffer and advance.

#include <catch2/catch.hpp>

#include <random>

#include "corpus.hpp"

using namespace dppgemm::emu;

namespace {

// Decode and print the whole buffer; returns the number of instructions.
std::size_t decode_and_print(Target target, const std::vector<std::uint8_t>& bytes, std::size_t& text_chars) {
    std::vector<Inst> insts = decode_all(target, bytes.data(), bytes.size());
    std::size_t end = 0;
    for (const Inst& inst : insts) {
        REQUIRE(inst.pc == end);
        REQUIRE((inst.size == 4 || inst.size == 8 || inst.size == 12));
        end += inst.size;
        text_chars += disassemble(inst, target).size();
    }
    REQUIRE(end <= bytes.size());
    REQUIRE(bytes.size() - end < 4);
    return insts.size();
}

std::vector<std::uint8_t> to_bytes(const std::vector<std::uint32_t>& words) {
    std::vector<std::uint8_t> bytes;
    for (std::uint32_t w : words)
        for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<std::uint8_t>(w >> (8 * b)));
    return bytes;
}

}  // namespace

TEST_CASE("random words decode and print without faults on every target", "[decode][fuzz]") {
    std::mt19937 rng(4242);
    for (Target target : all_targets) {
        std::size_t text = 0, count = 0;
        for (int round = 0; round < 40; ++round) {
            // Bias the top bits towards real encodings so every family is hit.
            static constexpr std::uint32_t prefixes[] = {0x00000000, 0x7E000000, 0x7C000000, 0x80000000, 0xB0000000,
                                                         0xBE800000, 0xBF000000, 0xBF800000, 0xC0000000, 0xD0000000,
                                                         0xD3800000, 0xD8000000, 0xDC000000, 0xE0000000, 0xFFFFFFFF};
            std::vector<std::uint32_t> words(500);
            for (std::uint32_t& w : words) {
                w = static_cast<std::uint32_t>(rng());
                if (rng() % 2) {
                    std::uint32_t p = prefixes[rng() % std::size(prefixes)];
                    w = (w & ~0xFF800000u) | (p & 0xFF800000u);
                }
            }
            std::vector<std::uint8_t> bytes = to_bytes(words);
            // Odd lengths: the tail must never be read past.
            bytes.resize(bytes.size() - rng() % 4);
            count += decode_and_print(target, bytes, text);
        }
        CHECK(count >= 10000);
        CHECK(text > 0);
    }
}

TEST_CASE("mutated valid instructions decode and print without faults", "[decode][fuzz]") {
    std::mt19937 rng(777);
    for (Target target : all_targets) {
        std::vector<test::Sample> samples = test::generate_corpus(target, 2, 99);
        std::size_t text = 0, count = 0;
        std::vector<std::uint32_t> words;
        for (const test::Sample& s : samples) words.insert(words.end(), s.words.begin(), s.words.end());
        for (int round = 0; round < 4; ++round) {
            std::vector<std::uint32_t> mutated = words;
            for (std::uint32_t& w : mutated)
                if (rng() % 3 == 0) w ^= 1u << (rng() % 32);
            count += decode_and_print(target, to_bytes(mutated), text);
        }
        CHECK(count >= 10000);
        // Truncations at every length of the first instructions.
        std::vector<std::uint8_t> bytes = to_bytes(std::vector<std::uint32_t>(words.begin(), words.begin() + 64));
        for (std::size_t n = 0; n <= bytes.size(); ++n) {
            std::vector<std::uint8_t> head(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
            decode_and_print(target, head, text);
        }
    }
}

TEST_CASE("decode_one refuses offsets outside the buffer", "[decode][fuzz]") {
    const std::uint8_t code[6] = {0x00, 0x00, 0x81, 0xBF, 0xFF, 0xFF};
    CHECK(decode_one(Target::gfx906, code, sizeof code, 4).op == Op::invalid);
    CHECK(decode_one(Target::gfx906, code, sizeof code, 100).op == Op::invalid);
    CHECK(decode_one(Target::gfx906, nullptr, 0, 0).op == Op::invalid);
    CHECK(decode_all(Target::gfx906, code, 3).empty());
}
