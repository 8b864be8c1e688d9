#include "sgemm_run.hpp"

#include "sgemm_launch.hpp"

namespace exec_test {

GemmResult run_gemm(const Program& program, unsigned macro_tile, const Gemm& g, const std::vector<float>& a,
                    const std::vector<float>& b, const std::vector<float>& c0, unsigned threads,
                    const Schedule& schedule) {
    using dppgemm::test_support::sgemm_kernargs;
    dppgemm::test_support::SgemmLaunch run(a, b, c0, sgemm_kernargs(g.m, g.n, g.k, g.lda, g.ldb, g.ldc, g.alpha, g.beta),
                                           macro_tile);
    run.config.threads = threads;
    run.config.schedule = schedule;
    GemmResult r;
    r.dispatch = launch(run.memory, program, run.config);
    r.c = run.c();
    return r;
}

}  // namespace exec_test
