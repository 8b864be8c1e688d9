// Typed buffer accesses: buffer_load/store_format_* convert per the V#'s
// DATA_FORMAT and NUM_FORMAT, against a host conversion; unimplemented formats
// stop naming the format.

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

i32 sext(u32 x, unsigned bits) { return i32(x << (32 - bits)) >> (32 - bits); }

}  // namespace

namespace {

// A typed buffer format as the V# gives it (word3 NUM_FORMAT 14:12, DATA_FORMAT 18:15).
struct TypedCase {
    const char* op;  // the instruction, without operands
    unsigned data_format, num_format;
    unsigned components, bits;  // of the format
};
enum : unsigned { unorm = 0, snorm = 1, uint_ = 4, sint_ = 5, float_ = 7 };

float half_value(u32 h) {
    const int e = int((h >> 10) & 0x1f), m = int(h & 0x3ff);
    const double v = e == 31 ? (m ? NAN : INFINITY) : e ? std::ldexp(1024.0 + m, e - 25) : std::ldexp(double(m), -24);
    return float((h & 0x8000) ? -v : v);
}
u32 half_bits(float f) {  // the host's IEEE conversion, round to nearest even
    const _Float16 h = _Float16(f);
    std::uint16_t bits;
    std::memcpy(&bits, &h, 2);
    return bits;
}

// The register value of one format component (Vega ISA "Buffer Instructions",
// D3D conversion rules): UNORM u / (2^n - 1), integers zero/sign-extended, f16 widened.
u32 typed_load_reference(u32 raw, const TypedCase& c, bool d16) {
    if (c.num_format == uint_) return d16 ? raw & 0xffff : raw;
    if (c.num_format == sint_) return (c.bits == 32 ? raw : u32(sext(raw, c.bits))) & (d16 ? 0xffffu : ~0u);
    if (c.num_format == unorm) {
        const float v = float(raw) / float((1u << c.bits) - 1);
        return d16 ? half_bits(v) : bits(v);
    }
    if (c.num_format == snorm) {
        const float v = std::max(float(sext(raw, c.bits)) / float((1u << (c.bits - 1)) - 1), -1.0f);
        return d16 ? half_bits(v) : bits(v);
    }
    if (c.bits == 16 && !d16 && (raw & 0x7c00) == 0x7c00 && (raw & 0x3ff))  // NaN: payload kept, quieted
        return (raw & 0x8000) << 16 | 0x7fc00000u | (raw & 0x3ff) << 13;
    if (c.bits == 16) return d16 ? raw : bits(half_value(raw));
    return raw;
}

// The stored bits of one register component: UNORM round_even(clamp(f) * (2^n - 1)), NaN 0; integers their low bits.
u32 typed_store_reference(u32 value, const TypedCase& c, bool d16) {
    const u32 mask = c.bits == 32 ? ~0u : (1u << c.bits) - 1;
    if (c.num_format == uint_ || c.num_format == sint_) return (d16 ? value & 0xffff : value) & mask;
    if (c.num_format == unorm) {
        float f;
        if (d16) f = half_value(value & 0xffff);
        else std::memcpy(&f, &value, 4);
        if (std::isnan(f)) return 0;
        f = std::min(std::max(f, 0.0f), 1.0f);
        return u32(std::nearbyint(double(f) * mask));
    }
    if (c.num_format == snorm) {
        float f;
        if (d16) f = half_value(value & 0xffff);
        else std::memcpy(&f, &value, 4);
        if (std::isnan(f)) return 0;
        f = std::min(std::max(f, -1.0f), 1.0f);
        return u32(i32(std::nearbyint(double(f) * ((1u << (c.bits - 1)) - 1)))) & mask;
    }
    if (c.bits == 16) {
        if (d16) return value & 0xffff;
        float f;
        std::memcpy(&f, &value, 4);
        return half_bits(f);
    }
    return value;
}

}  // namespace

TEST_CASE("buffer_load/store_format_* convert per the resource's DATA_FORMAT and NUM_FORMAT", "[memory]") {
    // Spot checks of the conversions the reference uses (D3D rules).
    const TypedCase unorm8{"", 1, unorm, 1, 8};
    CHECK(typed_load_reference(255, unorm8, false) == 0x3f800000u);
    CHECK(typed_load_reference(0, unorm8, false) == 0u);
    CHECK(typed_store_reference(0x3f000000u, unorm8, false) == 128u);  // 0.5 * 255 = 127.5 -> even 128
    CHECK(typed_store_reference(0x7fc00000u, unorm8, false) == 0u);
    CHECK(typed_store_reference(0xbf800000u, unorm8, false) == 0u);
    CHECK(typed_store_reference(0x40000000u, unorm8, false) == 255u);
    const TypedCase f16{"", 2, float_, 1, 16};
    CHECK(typed_store_reference(0x3f801000u, f16, false) == 0x3c00u);  // 1 + 2^-11: tie to even
    CHECK(typed_store_reference(0x3f803000u, f16, false) == 0x3c02u);  // 1 + 3 * 2^-11: tie to even
    CHECK(typed_load_reference(0x3c00u, f16, false) == 0x3f800000u);
    const TypedCase snorm8{"", 1, snorm, 1, 8};
    CHECK(typed_load_reference(0x80, snorm8, false) == 0xbf800000u);  // -128 -> -1, as -127
    CHECK(typed_load_reference(0x81, snorm8, false) == 0xbf800000u);
    CHECK(typed_load_reference(0x7f, snorm8, false) == 0x3f800000u);
    CHECK(typed_store_reference(0xbf800000u, snorm8, false) == 0x81u);  // -1 -> -127
    CHECK(typed_store_reference(0x3f000000u, snorm8, false) == 64u);    // 63.5 -> even 64

    const TypedCase cases[] = {
        {"format_x", 4, float_, 1, 32},       {"format_xyzw", 14, uint_, 4, 32},
        {"format_xyzw", 13, sint_, 3, 32},    {"format_xyz", 11, float_, 2, 32},
        {"format_xyzw", 1, unorm, 1, 8},      {"format_xyzw", 10, unorm, 4, 8},
        {"format_xy", 3, uint_, 2, 8},        {"format_xyzw", 10, sint_, 4, 8},
        {"format_x", 2, uint_, 1, 16},        {"format_xy", 5, unorm, 2, 16},
        {"format_xyzw", 12, float_, 4, 16},   {"format_xy", 5, sint_, 2, 16},
        {"format_d16_x", 2, float_, 1, 16},   {"format_d16_xy", 3, unorm, 2, 8},
        {"format_d16_xyz", 12, uint_, 4, 16}, {"format_d16_xyzw", 10, sint_, 4, 8},
        {"format_d16_hi_x", 2, uint_, 1, 16}, {"format_d16_xyzw", 12, float_, 4, 16},
        {"format_xyzw", 10, snorm, 4, 8},     {"format_xy", 5, snorm, 2, 16},
        {"format_d16_xy", 3, snorm, 2, 8},
    };
    // Memory bytes and register values: mixed bits, with floats that matter to each conversion.
    std::vector<u32> memory(256), registers(256);
    const u32 floats[] = {0x3f000000u, 0x7fc00000u, 0xbf800000u, 0x40000000u, 0x3f801000u, 0x3f803000u,
                          0x3b808081u, 0x3e99999au, 0x477fe000u, 0x00000001u, 0x80000000u, 0x3f7fffffu};
    u32 seed = 12345;
    for (unsigned i = 0; i < 256; ++i) {
        seed = seed * 1103515245u + 12345u;
        memory[i] = seed ^ (seed >> 13);
        const u32 f = floats[i % 12];
        // Halves: low from the float list (as f16 when it fits), high from the bits.
        registers[i] = (i % 3 == 0)   ? f
                       : (i % 3 == 1) ? (half_bits(from_bits(f)) | (memory[i] & 0xffff0000u))
                                      : memory[i] * 7u;
    }
    const u32 sentinel = 0x5eed5eedu, background = 0xa5a5a5a5u;
    // Two passes over the cases: the first only collects each target's
    // kernels, assembled together (assemble_kernels) before the second runs
    // and checks them in the same order.
    std::map<std::string, std::vector<std::string>> bodies;  // by target
    std::map<std::string, CodeObject> code;
    std::map<std::string, unsigned> next_kernel;
    for (const bool collecting : {true, false}) {
        if (!collecting)
            for (const auto& [mcpu, list] : bodies) {
                KernelOptions options;
                options.mcpu = mcpu;
                code.emplace(mcpu, assemble_kernels(list, options));
            }
        for (const TypedCase& c : cases) {
            const bool d16 = std::string(c.op).find("d16") != std::string::npos;
            const bool hi = std::string(c.op).find("hi") != std::string::npos;
            const std::string suffix = std::string(c.op).substr(std::string(c.op).rfind('_') + 1);
            const unsigned count = unsigned(suffix.size()), element = c.components * c.bits / 8;
            const unsigned regs = d16 ? (count + 1) / 2 : count;
            const std::string vdata = regs == 1 ? "v4" : "v[4:" + std::to_string(3 + regs) + "]";
            // The last lane's element straddles the end: only its first component is in range.
            const u32 num_records = 63 * element + c.bits / 8;
            const u32 word3 = c.data_format << 15 | c.num_format << 12;
            std::ostringstream setup;
            setup << "  s_mov_b32 s20, s4\n  s_mov_b32 s21, s5\n  s_mov_b32 s22, " << num_records
                  << "\n  s_mov_b32 s23, 0x" << std::hex << word3 << std::dec << "\n  v_mul_u32_u24 v2, " << element
                  << ", v0\n  v_lshlrev_b32 v3, 4, v0\n";
            for (const bool store : {false, true}) {
                std::ostringstream body;
                body << setup.str();
                if (store) {
                    body << "  global_load_dwordx4 v[4:7], v3, s[6:7]\n  s_waitcnt vmcnt(0)\n  buffer_store_" << c.op
                         << " " << vdata << ", v2, s[20:23], 0 offen\n  s_waitcnt vmcnt(0)\n";
                } else {
                    for (unsigned r = 4; r < 8; ++r)
                        body << "  v_mov_b32 v" << r << ", 0x" << std::hex << sentinel << std::dec << "\n";
                    body << "  buffer_load_" << c.op << " " << vdata
                         << ", v2, s[20:23], 0 offen\n  s_waitcnt vmcnt(0)\n"
                         << "  global_store_dwordx4 v3, v[4:7], s[8:9]\n";
                }
                for (const char* mcpu : {"gfx900", "gfx90a"}) {
                    if (collecting) {
                        bodies[mcpu].push_back(body.str());
                        continue;
                    }
                    const CodeObject& co = code.at(mcpu);
                    const std::string kernel = "k" + std::to_string(next_kernel[mcpu]++);
                    TestRun run(256);
                    run.fill(0, store ? std::vector<u32>(256, background) : memory);
                    run.fill(1, registers);
                    const DispatchResult r = run.run(build_program(co, co.kernel(kernel)));
                    INFO(mcpu << "\n" << body.str() << (r.fault ? r.fault->message : std::string()));
                    REQUIRE(r.ok());
                    std::vector<std::uint8_t> bytes(1024);
                    const auto after = run.read(store ? 0 : 2, 256);
                    std::memcpy(bytes.data(), after.data(), 1024);
                    std::vector<std::uint8_t> source(1024);
                    std::memcpy(source.data(), memory.data(), 1024);
                    const unsigned bytes_per = c.bits / 8;
                    for (unsigned l = 0; l < 64; ++l) {
                        INFO("lane " << l);
                        if (!store) {
                            u32 want[4] = {sentinel, sentinel, sentinel, sentinel};
                            for (unsigned r2 = 0; r2 < regs; ++r2)
                                want[r2] = d16 && count == 1 ? (hi ? sentinel & 0xffff : sentinel & 0xffff0000u) : 0;
                            for (unsigned k = 0; k < count; ++k) {
                                u32 value;
                                if (k >= c.components) {
                                    const bool integer = c.num_format == uint_ || c.num_format == sint_;
                                    value = k != 3 ? 0 : integer ? 1 : d16 ? 0x3c00 : 0x3f800000u;
                                } else {
                                    const unsigned offset = l * element + k * bytes_per;
                                    u32 raw = 0;
                                    std::memcpy(&raw, &source[offset], bytes_per);
                                    value = offset < num_records ? typed_load_reference(raw, c, d16) : 0;
                                }
                                if (d16) want[k / 2] |= value << ((k & 1) || hi ? 16 : 0);
                                else want[k] = value;
                            }
                            for (unsigned k = 0; k < 4; ++k) CHECK(after[4 * l + k] == want[k]);
                        } else {
                            for (unsigned b = 0; b < element; ++b) {
                                const unsigned k = b / bytes_per, offset = l * element + b;
                                std::uint8_t want = 0xa5;
                                if (k < count && offset - (b % bytes_per) < num_records) {
                                    const u32 reg = d16 ? registers[4 * l + k / 2] >> ((k & 1) || hi ? 16 : 0)
                                                        : registers[4 * l + k];
                                    want = std::uint8_t(typed_store_reference(reg, c, d16) >> (8 * (b % bytes_per)));
                                }
                                CHECK(bytes[offset] == want);
                            }
                        }
                    }
                }
            }
        }
    }
}

TEST_CASE("buffer format accesses with an unimplemented format stop naming it", "[memory]") {
    const std::pair<u32, const char*> formats[] = {
        {6u << 15 | 7u << 12, "DATA_FORMAT 6 (10_11_11) and NUM_FORMAT 7 (FLOAT)"},
        {10u << 15 | 2u << 12, "DATA_FORMAT 10 (8_8_8_8) and NUM_FORMAT 2 (USCALED)"},
        {4u << 15 | 1u << 12, "DATA_FORMAT 4 (32) and NUM_FORMAT 1 (SNORM)"},
        {0u << 15 | 4u << 12, "DATA_FORMAT 0 (INVALID) and NUM_FORMAT 4 (UINT)"},
    };
    for (const auto& [word3, name] : formats) {
        std::ostringstream body;
        body << "  s_mov_b32 s20, s4\n  s_mov_b32 s21, s5\n  s_mov_b32 s22, 256\n  s_mov_b32 s23, 0x" << std::hex
             << word3 << "\n  buffer_load_format_x v4, v1, s[20:23], 0 offen\n  s_waitcnt vmcnt(0)\n";
        KernelOptions options;
        options.mcpu = "gfx906";
        const CodeObject co = assemble_kernel(body.str(), options);
        TestRun run(64);
        const DispatchResult r = run.run(build_program(co, co.kernels.at(0)));
        REQUIRE(r.fault);
        INFO(r.fault->message);
        CHECK(r.fault->message.find(name) != std::string::npos);
        CHECK(r.fault->message.find("not implemented") != std::string::npos);
    }
}
