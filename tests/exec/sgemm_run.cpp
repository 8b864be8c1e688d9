#include "sgemm_run.hpp"

#include <cstring>

#include "dppgemm/kernargs.h"

namespace exec_test {

GemmResult run_gemm(const Program& program, unsigned macro_tile, const Gemm& g, const std::vector<float>& a,
                    const std::vector<float>& b, const std::vector<float>& c0, unsigned threads,
                    const Schedule& schedule) {
    DeviceMemory memory;
    const std::uint64_t da = memory.allocate(4 * a.size(), "A"), db = memory.allocate(4 * b.size(), "B"),
                        dc = memory.allocate(4 * c0.size(), "C");
    memory.write(da, a.data(), 4 * a.size());
    memory.write(db, b.data(), 4 * b.size());
    memory.write(dc, c0.data(), 4 * c0.size());
    dppgemm_sgemm_kernargs k{da,
                             db,
                             dc,
                             std::uint32_t(g.m),
                             std::uint32_t(g.n),
                             std::uint32_t(g.k),
                             std::uint32_t(g.lda),
                             std::uint32_t(g.ldb),
                             std::uint32_t(g.ldc),
                             g.alpha,
                             g.beta};
    LaunchConfig config;
    config.grid = {std::uint32_t((g.m + macro_tile - 1) / macro_tile),
                   std::uint32_t((g.n + macro_tile - 1) / macro_tile), 1};
    config.block = {256, 1, 1};
    config.kernarg.resize(sizeof k);
    std::memcpy(config.kernarg.data(), &k, sizeof k);
    config.threads = threads;
    config.schedule = schedule;
    GemmResult r;
    r.dispatch = launch(memory, program, config);
    r.c.resize(c0.size());
    memory.read(dc, r.c.data(), 4 * c0.size());
    return r;
}

std::vector<float> random_matrix(std::size_t count, std::mt19937& rng) {
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> v(count);
    for (float& x : v) x = dist(rng);
    return v;
}

}  // namespace exec_test
