// One dppgemm SGEMM on the emulator from host matrices (column major, as the
// kernels take them): the launcher of every test that runs the project's
// kernels through the emulator's own API (tests/exec, tests/check, and
// tests/host's reference runs), and the random operands they use.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "dppgemm/kernargs.h"
#include "emu/exec/dispatch.hpp"

namespace dppgemm::test_support {

// The kernel arguments of C = alpha op(A) op(B) + beta C, the three addresses 0.
inline dppgemm_sgemm_kernargs sgemm_kernargs(int m, int n, int k, int lda, int ldb, int ldc, float alpha, float beta) {
    return {0,
            0,
            0,
            std::uint32_t(m),
            std::uint32_t(n),
            std::uint32_t(k),
            std::uint32_t(lda),
            std::uint32_t(ldb),
            std::uint32_t(ldc),
            alpha,
            beta};
}

// A, B and C in fresh device memory, each buffer exactly its host array, and
// the launch of one SGEMM on them: `arguments` with the three addresses filled
// in, one workgroup per macro tile of C (the variant table's macro_tile
// column). `config.threads` and the rest are the caller's to set before
// launching on `memory`.
struct SgemmLaunch {
    emu::DeviceMemory memory;
    dppgemm_sgemm_kernargs args;
    emu::LaunchConfig config;

    SgemmLaunch(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& c,
                const dppgemm_sgemm_kernargs& arguments, std::uint32_t macro_tile = 128)
        : args(arguments), c_count_(c.size()) {
        args.a = memory.allocate(4 * a.size(), "A");
        args.b = memory.allocate(4 * b.size(), "B");
        args.c = memory.allocate(4 * c.size(), "C");
        memory.write(args.a, a.data(), 4 * a.size());
        memory.write(args.b, b.data(), 4 * b.size());
        memory.write(args.c, c.data(), 4 * c.size());
        config.grid = {(args.size_m + macro_tile - 1) / macro_tile, (args.size_n + macro_tile - 1) / macro_tile, 1};
        config.block = {DPPGEMM_SGEMM_BLOCK_SIZE, 1, 1};
        config.kernarg.assign(reinterpret_cast<const std::uint8_t*>(&args),
                              reinterpret_cast<const std::uint8_t*>(&args + 1));
    }

    // C as the device memory holds it.
    std::vector<float> c() const {
        std::vector<float> out(c_count_);
        memory.read(args.c, out.data(), 4 * out.size());
        return out;
    }

private:
    std::size_t c_count_;
};

// `count` values uniform in [-1, 1).
inline std::vector<float> random_matrix(std::size_t count, std::mt19937& rng) {
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(count);
    for (float& x : v) x = dist(rng);
    return v;
}

}  // namespace dppgemm::test_support
