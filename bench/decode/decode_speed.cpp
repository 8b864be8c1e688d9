// Decoding speed of the emulator's decoder, in instructions per second.
//
//   dppgemm-decode-bench [--target gfx906] [--repeat N] [FILE]
//
// Decodes FILE's bytes as machine code (e.g. a .text section dumped with
// llvm-objcopy -O binary --only-section=.text), or else a built-in mix of
// the instructions the SGEMM kernels are made of, repeated to ~1M
// instructions.  Prints decode and decode+disassemble rates.  A benchmark,
// not a test: nothing here asserts a speed.

#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "emu/decode/inst.hpp"

using namespace dppgemm::emu;

namespace {

// One SGEMM inner-loop's worth of instruction kinds (gfx906 encodings).
const std::uint32_t kernel_mix[] = {
    0x2C0806FA, 0xFF00A002,  // v_mac_f32_dpp v4, v2, v3 quad_perm:[0,0,2,2]
    0x2C0A0702,              // v_mac_f32_e32 v5, v2, v3
    0xD9FE0010, 0x04000001,  // ds_read_b128 v[4:7], v1 offset:16
    0xBF8C0070,              // s_waitcnt vmcnt(0) lgkmcnt(0)
    0xDC509FF0, 0x017F0002,  // global_load_dword v1, v[2:3], off offset:-16
    0xE0501010, 0x80010102,  // buffer_load_dword v1, v2, s[4:7], 0 offen offset:16
    0xC00A0002, 0x00000010,  // s_load_dwordx4 s[0:3], s[4:5], 0x10
    0x7E0202FF, 0x12345678,  // v_mov_b32_e32 v1, 0x12345678
    0xD1CB0001, 0x03CA0702,  // v_fma_f32 v1, v2, v3, 1.0
    0x80000201,              // s_add_u32 s0, s1, s2
    0xBF840003,              // s_cbranch_scc0 3
    0xD8340000, 0x00000201,  // ds_write_b32 v1, v2
    0xBF8A0000,              // s_barrier
};

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
    Target target = default_target;
    int repeat = 5;
    std::vector<std::uint8_t> code;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--target" && i + 1 < argc) {
            std::string name = argv[++i];
            const std::optional<Target> named = target_from_name(name);
            if (named) target = *named;
            if (!named) {
                std::fprintf(stderr, "unknown target %s\n", name.c_str());
                return 2;
            }
        } else if (arg == "--repeat" && i + 1 < argc) {
            repeat = std::max(1, std::atoi(argv[++i]));
        } else {
            std::ifstream in(arg, std::ios::binary);
            if (!in) {
                std::fprintf(stderr, "cannot read %s\n", arg.c_str());
                return 2;
            }
            code.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        }
    }
    if (code.empty()) {
        const std::size_t copies = 1'000'000 / 13;
        code.resize(copies * sizeof kernel_mix);
        for (std::size_t c = 0; c < copies; ++c)
            std::memcpy(&code[c * sizeof kernel_mix], kernel_mix, sizeof kernel_mix);
    }

    // Three rates: decode_one streaming through the code (no storage),
    // decode_all of kernel-sized pieces (16 KiB, what pre-decoding one code
    // object costs), and disassemble.  Best of `repeat` runs each.
    double best_stream = 1e30, best_all = 1e30, best_text = 1e30;
    std::size_t count = 0, chars = 0, opcode_sum = 0;
    const std::size_t piece = std::min<std::size_t>(code.size(), 16384);
    std::vector<Inst> insts;
    for (int r = 0; r < repeat; ++r) {
        auto start = std::chrono::steady_clock::now();
        count = 0;
        for (std::size_t offset = 0; offset + 4 <= code.size(); ++count) {
            Inst inst = decode_one(target, code.data(), code.size(), offset);
            opcode_sum += static_cast<std::size_t>(inst.op);
            offset += inst.size;
        }
        best_stream = std::min(best_stream, seconds_since(start));

        start = std::chrono::steady_clock::now();
        std::size_t all = 0;
        for (std::size_t offset = 0; offset + piece <= code.size(); offset += piece) {
            insts = decode_all(target, code.data() + offset, piece);
            all += insts.size();
        }
        best_all = std::min(best_all, seconds_since(start) * static_cast<double>(count) / static_cast<double>(all));

        insts = decode_all(target, code.data(), code.size());
        start = std::chrono::steady_clock::now();
        chars = 0;
        for (const Inst& inst : insts) chars += disassemble(inst, target).size();
        best_text = std::min(best_text, seconds_since(start));
    }
    std::printf("%zu instructions (%zu bytes), sizeof(Inst) = %zu, checksum %zu\n", count, code.size(), sizeof(Inst),
                opcode_sum % 1000);
    std::printf("decode_one:          %.1f M instructions/s\n", count / best_stream / 1e6);
    std::printf("decode_all (16 KiB): %.1f M instructions/s\n", count / best_all / 1e6);
    std::printf("disassemble:         %.1f M instructions/s (%zu characters)\n", count / best_text / 1e6, chars);
    return 0;
}
