// Random kernels: whatever a kernel computes, the emulator must never touch
// host memory outside its own structures. Each program is a sequence of
// random words that decode to valid instructions (plus s_endpgm); it runs
// with SGPRs pointing into real device buffers and into nowhere. Every run
// must end normally or with a reported fault; under AddressSanitizer (the
// sanitized test build) any stray host access aborts the test.

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <random>

#include "kernel_builder.hpp"

using namespace exec_test;

namespace {

// Encoding prefixes that make a random word likely to decode.
constexpr std::uint32_t prefixes[][2] = {
    // {fixed bits, mask of fixed bits}
    {0x80000000u, 0xc0000000u},  // SOP2 (and SOPK/SOP1/SOPC/SOPP beneath it)
    {0xbe800000u, 0xff800000u},  // SOP1
    {0xbf000000u, 0xff800000u},  // SOPC
    {0x00000000u, 0x80000000u},  // VOP2
    {0x7e000000u, 0xfe000000u},  // VOP1
    {0x7c000000u, 0xfe000000u},  // VOPC
    {0xd0000000u, 0xfc000000u},  // VOP3
    {0xd8000000u, 0xfc000000u},  // DS
    {0xdc000000u, 0xfc000000u},  // FLAT/GLOBAL/SCRATCH
    {0xe0000000u, 0xfc000000u},  // MUBUF
    {0xc0000000u, 0xfc000000u},  // SMEM
};

std::vector<std::uint8_t> random_code(std::mt19937& rng, Target target, unsigned instructions) {
    std::vector<std::uint8_t> code;
    unsigned made = 0;
    while (made < instructions) {
        const auto& prefix = prefixes[rng() % (sizeof prefixes / sizeof prefixes[0])];
        std::uint32_t words[3] = {(std::uint32_t(rng()) & ~prefix[1]) | prefix[0], std::uint32_t(rng()),
                                  std::uint32_t(rng())};
        // Keep register numbers small now and then so that memory ops hit the prepared SGPRs.
        if (rng() % 2) words[1] &= 0xff1f1f1fu;
        std::uint8_t bytes[12];
        std::memcpy(bytes, words, 12);
        const Inst inst = decode_one(target, bytes, 12, 0);
        // Only what the executor implements: the point is to run deep, not to stop at the first unknown op.
        if (!inst.valid() || !has_semantics(inst.op) || inst.sdwa) continue;
        code.insert(code.end(), bytes, bytes + inst.size);
        ++made;
    }
    const std::uint32_t endpgm = 0xbf810000u;
    const std::uint8_t* e = reinterpret_cast<const std::uint8_t*>(&endpgm);
    code.insert(code.end(), e, e + 4);
    return code;
}

}  // namespace

TEST_CASE("random kernels never escape the emulated address space", "[fuzz]") {
    std::mt19937 rng(20261122);
    unsigned ended = 0, faulted = 0;
    for (Target target : {Target::gfx906, Target::gfx90a}) {
        for (int program_index = 0; program_index < 150; ++program_index) {
            Kernel kernel;
            kernel.name = "fuzz";
            kernel.code = random_code(rng, target, 24);
            kernel.descriptor.group_segment_fixed_size = 512;
            kernel.descriptor.user_sgprs.kernarg_segment_ptr = true;
            kernel.descriptor.user_sgpr_count = 2;
            kernel.descriptor.system_sgprs.workgroup_id_x = true;
            kernel.descriptor.enable_vgpr_workitem_id = 2;
            kernel.descriptor.workitem_ids_packed = target == Target::gfx90a;
            kernel.metadata.kernarg_segment_size = 64;
            const Program program = build_program(kernel, target);
            DeviceMemory memory;
            const std::uint64_t buffer = memory.allocate(4096, "buffer");
            std::vector<std::uint8_t> kernarg(64, 0);
            // The kernarg segment holds the buffer's address a few times and a V# over it.
            for (int i = 0; i < 4; ++i) std::memcpy(kernarg.data() + 8 * i, &buffer, 8);
            const std::uint32_t vsharp[4] = {std::uint32_t(buffer), std::uint32_t(buffer >> 32) & 0xffff, 4096, 0};
            std::memcpy(kernarg.data() + 32, vsharp, 16);
            LaunchConfig config;
            config.grid = {2, 1, 1};
            config.block = {96, 1, 1};
            config.kernarg = kernarg;
            config.threads = 2;
            config.watchdog = 20000;
            const DispatchResult r = launch(memory, program, config);
            if (r.fault) {
                ++faulted;
                if (std::getenv("FUZZ_VERBOSE")) std::printf("%s\n", r.fault->message.c_str());
                CHECK_FALSE(r.fault->message.empty());
                CHECK_FALSE(r.fault->instruction.empty());
            } else {
                ++ended;
            }
        }
    }
    // Both outcomes occur: the generator is not trivially broken either way.
    CHECK(ended > 0);
    CHECK(faulted > 0);
}
